export interface Violation {
  code: string;
  severity: "fatal" | "violation" | "warning";
  message: string;
  eventIndex: number;
  toolCallId?: string;
  messageId?: string;
}

export interface ToolCallState {
  readonly id: string;
  readonly name: string;
  readonly status: "open" | "complete" | "abandoned";
  readonly argsText: string;
}

export interface Snapshot {
  readonly calls: readonly ToolCallState[];
  readonly fatal: Violation | null;
}

export declare class ToolCallStreamError extends Error {
  readonly violation: Violation;
}

export declare class ToolCallTracker {
  pushJson(text: string): Snapshot;
  push(event: object): Snapshot;
  snapshot(): Snapshot;
  free(): void;
}
