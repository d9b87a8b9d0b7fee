import { Component, type ComponentType, lazy, type ReactNode, useReducer, useState } from "react";
import { isChunkLoadError } from "@/web/lib/chunk-load";
import { Button } from "./ui/button";

/**
 * `React.lazy` for the dialogs and panels that load on first use, surviving an outage: React.lazy
 * keeps a failed import for good, so a chunk that failed once could never open again. A chunk
 * that fails shows a notice with Retry, which imports it afresh (as does the next opening). The
 * notice's Close calls the component's `onClose` when it has one, so the opener's state agrees.
 * Callers keep their own `<Suspense>` around it for the loading moment.
 */
export function lazyWithRetry<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
) {
  let Lazy = lazy(load);
  const importAfresh = () => {
    Lazy = lazy(load);
  };
  return function LazyWithRetry(props: P) {
    const [attempt, retry] = useReducer((n: number) => n + 1, 0);
    const [closed, setClosed] = useState(false);
    if (closed) return null;
    const { onClose } = props as { onClose?: unknown };
    return (
      <ChunkBoundary
        key={attempt}
        onFailed={importAfresh}
        onRetry={retry}
        onClose={typeof onClose === "function" ? () => onClose() : () => setClosed(true)}
      >
        <Lazy {...props} />
      </ChunkBoundary>
    );
  };
}

interface BoundaryProps {
  children: ReactNode;
  onFailed(): void;
  onRetry(): void;
  onClose(): void;
}

/** Catches a chunk that failed to load; every other error goes on to the route's boundary. */
class ChunkBoundary extends Component<BoundaryProps, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown) {
    if (isChunkLoadError(error)) this.props.onFailed();
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isChunkLoadError(error)) throw error;
    return <ChunkLoadNotice onRetry={this.props.onRetry} onClose={this.props.onClose} />;
  }
}

function ChunkLoadNotice({ onRetry, onClose }: { onRetry(): void; onClose(): void }) {
  return (
    <div
      role="alert"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto grid max-w-md gap-3 rounded-lg border border-destructive/50 bg-card p-4 text-sm shadow-lg"
    >
      <div>
        <p className="font-medium">This part of the console could not be loaded</p>
        <p className="text-muted-foreground">
          The network or the service may be down. Nothing you did was lost.
        </p>
      </div>
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    </div>
  );
}
