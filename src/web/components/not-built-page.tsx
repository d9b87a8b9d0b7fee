import { ConstructionIcon } from "lucide-react";
import { EmptyState } from "./empty-state";

export function NotBuiltPage({ label, summary }: { label: string; summary: string }) {
  return (
    <>
      <h1 className="sr-only">{label}</h1>
      <EmptyState icon={ConstructionIcon} title={`${label} is not available yet`}>
        <p>{summary}</p>
        <p>This area is not in the console yet; the rest of the console works as usual.</p>
      </EmptyState>
    </>
  );
}
