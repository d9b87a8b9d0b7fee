import type { KeyInfo } from "@/contract/auth";
import type { Manifest } from "@/contract/files";
import type {
  CreatedTransfer,
  CreateTransferBody,
  Transfer,
  UpdateTransferBody,
} from "@/contract/transfers";

/** A refusal by the service or the node, with the error envelope's code and message. */
export class AgentError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: unknown = null,
  ) {
    super(message);
  }
}

/** Turns a non-2xx answer into an AgentError, reading the envelope when there is one. */
export async function refusal(res: Response, what: string): Promise<AgentError> {
  const text = await res.text().catch(() => "");
  try {
    const { error } = JSON.parse(text) as {
      error: { code: string; message: string; details: unknown };
    };
    return new AgentError(`${what}: ${error.message}`, res.status, error.code, error.details);
  } catch {
    return new AgentError(`${what}: HTTP ${res.status} ${text.slice(0, 200)}`, res.status, "http");
  }
}

/** The service's API with one key: the few calls the agent makes. */
export class ServiceClient {
  readonly api: string;
  private workspace?: string;

  constructor(
    url: string,
    private readonly key: string,
    workspaceId?: string,
  ) {
    const base = url.replace(/\/+$/, "");
    this.api = base.endsWith("/v1") ? base : `${base}/v1`;
    this.workspace = workspaceId;
  }

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await fetch(url.startsWith("http") ? url : `${this.api}${url}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.key}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw await refusal(res, `${method} ${url.replace(/\?.*/, "")}`);
    return (await res.json()) as T;
  }

  /** The key's workspace, asked once (GET /auth/key) unless given. */
  async workspaceId(): Promise<string> {
    this.workspace ??= (await this.call<KeyInfo>("GET", "/auth/key")).workspace.id;
    return this.workspace;
  }

  private async ws(rest: string) {
    return `/workspaces/${await this.workspaceId()}${rest}`;
  }

  async createTransfer(body: CreateTransferBody) {
    return this.call<CreatedTransfer>("POST", await this.ws("/transfers"), body);
  }

  async transfer(id: string) {
    return this.call<Transfer>("GET", await this.ws(`/transfers/${id}`));
  }

  /** PATCH progress to the spec's own URL (which names the workspace). */
  report(progressUrl: string, body: UpdateTransferBody) {
    return this.call<Transfer>("PATCH", progressUrl, body);
  }

  /** Makes a folder (and its parents); one that exists is left as it is. */
  async createFolder(path: string) {
    await this.call("POST", await this.ws("/files/folder"), { path });
  }

  /** Every file under a workspace folder, or null when `path` is a file. */
  async manifest(path: string): Promise<Manifest | null> {
    try {
      return await this.call<Manifest>(
        "GET",
        await this.ws(`/files/manifest?path=${encodeURIComponent(path)}`),
      );
    } catch (e) {
      if (
        e instanceof AgentError &&
        e.status === 400 &&
        JSON.stringify(e.details).includes("not_a_folder")
      )
        return null;
      throw e;
    }
  }
}
