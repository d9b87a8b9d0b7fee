import { ConstructionIcon } from "lucide-react";

export function NotBuiltPage({ label, summary }: { label: string; summary: string }) {
  return (
    <div className="mx-auto mt-16 grid max-w-md gap-3 p-6 text-center">
      <ConstructionIcon className="mx-auto size-8 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-lg font-semibold">{label}</h1>
      <p className="text-sm text-muted-foreground">{summary}</p>
      <p className="text-sm">This area is not available in the console yet.</p>
    </div>
  );
}
