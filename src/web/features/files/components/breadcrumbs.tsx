import { Link } from "@tanstack/react-router";
import { ChevronRightIcon, HomeIcon } from "lucide-react";
import { type DropOnto, folderDropProps } from "@/web/features/files/hooks/use-drag-move";
import { dropTargetClass } from "./row-parts";

/** With `onDropOnto`, each crumb is also a drop target for dragged items (a move). */
export function Breadcrumbs({ path, onDropOnto }: { path: string; onDropOnto?: DropOnto }) {
  const segments = path ? path.split("/") : [];
  const drop = (to: string) => (onDropOnto ? folderDropProps(to, onDropOnto) : {});
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1 text-sm">
        <li>
          <Link
            to="/files"
            search={{}}
            className={`flex items-center gap-1 rounded px-1 text-muted-foreground hover:text-foreground ${dropTargetClass}`}
            aria-current={segments.length === 0 ? "page" : undefined}
            {...drop("")}
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
                className={`${
                  last
                    ? "truncate rounded px-1 font-medium"
                    : "truncate rounded px-1 text-muted-foreground hover:text-foreground"
                } ${dropTargetClass}`}
                aria-current={last ? "page" : undefined}
                {...drop(to)}
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
