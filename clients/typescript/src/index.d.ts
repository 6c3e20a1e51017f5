/** One tool call of a turn. */
export interface Call {
  name: string;
  arguments: Record<string, unknown>;
  modelCallId?: string;
}

/** One model response, submitted as a turn. */
export interface TurnInput {
  agent: string;
  turnId: string;
  calls: Call[];
}

/** The record of one call of a completed turn. */
export interface CallRecord {
  index: number;
  callId: string;
  tool: string;
  outcome: 'succeeded' | 'failed' | 'outcome_unknown';
  attempts: number;
  skipped: boolean;
  effectClass: 'read' | 'idempotent_write' | 'non_idempotent_write';
  durationMs?: number;
  approvalWaitMs?: number;
  modelCallId?: string;
  result?: unknown;
  error?: string;
  approval?: { status: string; askedBecause?: string; approver?: string; reason?: string; requestedAt?: number; decidedAt?: number };
}

export interface TurnAnswer {
  sessionId: string;
  turnId: string;
  status: 'accepted' | 'completed' | 'pending';
  results?: { sessionId: string; turnId: string; results: CallRecord[] };
  reconciled?: Array<{ callId: string; turnId: string; outcome: string; note: string; reconciledBy: string; at: number }>;
  resultsUrl?: string;
  eventsUrl?: string;
}

export interface ToolDefinition {
  name: string;
  description?: string;
  effectClass: string;
  approval?: string;
  inputSchema: Record<string, unknown>;
  title?: string;
  openWorld?: boolean;
}

export interface PendingApproval {
  agent: string;
  sessionId: string;
  turnId: string;
  callId: string;
  tool: string;
  effectClass: string;
  arguments: Record<string, unknown>;
  argumentsHash: string;
  askedBecause: string;
  requestedAt: number;
  expiresAt: number;
}

export interface SessionEvent {
  id?: string;
  type: string;
  data: any;
}

interface Cancellable {
  signal?: AbortSignal;
}

/** An error answered by the Ratchet API: HTTP status and the API's error code. */
export class RatchetError extends Error {
  readonly status: number;
  readonly code: string;
  readonly apiMessage?: string;
  readonly retryable: boolean;
}

/** A call that ended failed or outcome_unknown; its message is Ratchet's text for the model. */
export class ToolCallError extends Error {
  readonly call: CallRecord;
  readonly outcome: CallRecord['outcome'];
  readonly skipped: boolean;
}

/** How long `runTurn` and `awaitTurn` wait for a turn by default: 30 minutes. */
export const DEFAULT_TURN_TIMEOUT_MS: number;

/**
 * A client of one Ratchet server's HTTP API, authenticated with an API token. Waiting for a turn
 * lasts `turnTimeoutMs` through restarts of Ratchet and proxy errors (502, 503, 504, HTML pages).
 */
export class RatchetClient {
  constructor(options: { baseUrl: string; token: string; fetch?: typeof fetch; turnTimeoutMs?: number });
  readonly baseUrl: string;
  readonly turnTimeoutMs: number;
  submitTurn(sessionId: string, turn: TurnInput, options?: Cancellable & { deadline?: number }): Promise<TurnAnswer>;
  awaitTurn(sessionId: string, turnId: string, options?: Cancellable & { timeoutMs?: number; deadline?: number }): Promise<TurnAnswer>;
  runTurn(sessionId: string, turn: TurnInput, options?: Cancellable & { timeoutMs?: number }): Promise<TurnAnswer>;
  static callsOf(answer: TurnAnswer): CallRecord[];
  static valueOf(call: CallRecord): unknown;
  sendMessage(sessionId: string, message: { agent: string; text: string; messageId?: string },
    options?: Cancellable & { waitSeconds?: number }): Promise<Record<string, unknown>>;
  messages(sessionId: string, options?: Cancellable): Promise<{ sessionId: string; messages: Array<Record<string, unknown>> }>;
  session(sessionId: string, options?: Cancellable): Promise<Record<string, any>>;
  agents(options?: Cancellable): Promise<Array<{ name: string; tools: number }>>;
  tools(agent: string, options?: Cancellable): Promise<ToolDefinition[]>;
  approvals(options?: Cancellable): Promise<PendingApproval[]>;
  decide(sessionId: string, callId: string, decision: { argumentsHash: string; approved: boolean; reason?: string },
    options?: Cancellable): Promise<Record<string, unknown>>;
  events(sessionId: string, options?: Cancellable & { lastEventId?: string }): AsyncGenerator<SessionEvent>;
}

/** A tool call executed without the model's call id: refused, so it is never taken for an identical earlier call. */
export class MissingCallIdError extends Error {
  constructor(tool: string);
}

/** Runs the tool calls of one model response as one turn, for frameworks that execute calls one by one. */
export class StepTurns {
  constructor(options: { client: RatchetClient; sessionId: string; agent: string });
  record(responseId: string | undefined, calls: Array<{ toolCallId: string; name: string; arguments?: Record<string, unknown> }>): void;
  execute(toolCallId: string | undefined, name: string, args: Record<string, unknown>, options?: Cancellable): Promise<unknown>;
}

export function isValidId(id: unknown): boolean;
export function turnIdFor(responseId: string | undefined | null, toolCallIds?: string[]): string;
export function modelCallIdFor(toolCallId: string | undefined | null): string | undefined;
