import { Link } from "@tanstack/react-router";
import { ChevronRightIcon, HomeIcon } from "lucide-react";

export function Breadcrumbs({ path }: { path: string }) {
  const segments = path ? path.split("/") : [];
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1 text-sm">
        <li>
          <Link
            to="/files"
            search={{}}
            className="flex items-center gap-1 rounded px-1 text-muted-foreground hover:text-foreground"
            aria-current={segments.length === 0 ? "page" : undefined}
          >
            <HomeIcon className="size-4" aria-hidden="true" />
            Files
          </Link>
        </li>
        {segments.map((segment, i) => {
          const to = segments.slice(0, i + 1).join("/");
          const last = i === segments.length - 1;
          return (
            <li key={to} className="flex min-w-0 items-center gap-1">
              <ChevronRightIcon
                className="size-4 shrink-0 text-muted-foreground"
                aria-hidden="true"
              />
              <Link
                to="/files"
                search={{ path: to }}
                className={
                  last
                    ? "truncate rounded px-1 font-medium"
                    : "truncate rounded px-1 text-muted-foreground hover:text-foreground"
                }
                aria-current={last ? "page" : undefined}
              >
                {segment}
              </Link>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
