import { AiError, AiHttpError } from '../errors.js';
import type { ModelUsage, UsageSink } from './usage-sink.js';

/** The period a budget counts tokens over, in UTC. */
export type BudgetWindow = 'hour' | 'day' | 'month';

/** Where spent tokens are kept: one counter per subject and window start. */
export interface BudgetStore {
  /** Tokens counted so far for `subject` in the window starting at `windowStart`. */
  used(subject: string, windowStart: Date): Promise<number>;
  /** Adds `tokens` to that counter (creating it). */
  add(subject: string, windowStart: Date, tokens: number): Promise<void>;
}

/** Counters in this process only: for tests and `fw dev` (a deployed app keeps them in PostgreSQL). */
export class InMemoryBudgetStore implements BudgetStore {
  private readonly counters = new Map<string, number>();

  public async used(subject: string, windowStart: Date): Promise<number> {
    return this.counters.get(`${windowStart.toISOString()} ${subject}`) ?? 0;
  }

  public async add(subject: string, windowStart: Date, tokens: number): Promise<void> {
    const key = `${windowStart.toISOString()} ${subject}`;
    this.counters.set(key, (this.counters.get(key) ?? 0) + tokens);
  }
}

/** Options of `createTokenBudget`. */
export interface TokenBudgetOptions {
  /** Tokens (input + output) allowed per subject and window. */
  readonly limit: number;
  /**
   * Whom the budget is counted for: each tenant, or each user (within their tenant).
   * @default 'tenant'
   */
  readonly per?: 'tenant' | 'user';
  /**
   * The period.
   * @default 'day'
   */
  readonly window?: BudgetWindow;
  /**
   * Where the counters live.
   * @default - a new `InMemoryBudgetStore`
   */
  readonly store?: BudgetStore;
  /**
   * The clock (tests move it).
   * @default Date.now
   */
  readonly now?: () => number;
}

/** Who a call is counted for. */
export interface BudgetSubject {
  readonly tenantId?: string;
  readonly userId?: string;
}

/**
 * A token budget per tenant or user: `check` refuses a call once the window's tokens are spent (429
 * `AI_BUDGET_EXCEEDED`), `record` counts a call's tokens. A model created with `budget` does both around each call.
 */
export interface TokenBudget extends UsageSink {
  readonly limit: number;
  check(subject: BudgetSubject): Promise<{ readonly used: number; readonly remaining: number }>;
}

export function createTokenBudget(options: TokenBudgetOptions): TokenBudget {
  const { limit } = options;
  if (!Number.isInteger(limit) || limit <= 0) throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `createTokenBudget: limit must be a whole number of tokens > 0 (got ${String(limit)}).`);
  const per = options.per ?? 'tenant';
  if (per !== 'tenant' && per !== 'user') throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `createTokenBudget: per must be 'tenant' or 'user' (got ${JSON.stringify(per)}).`);
  const window = options.window ?? 'day';
  if (!(window in WINDOW_STARTS)) throw new AiError('FW_ERR_AI_INVALID_OPTIONS', `createTokenBudget: window must be 'hour', 'day' or 'month' (got ${JSON.stringify(window)}).`);
  const store = options.store ?? new InMemoryBudgetStore();
  const now = options.now ?? Date.now;
  // A user's counter is namespaced by the tenant (state belongs to the caller): the same user id in two tenants is
  // two people. Calls without a user share the tenant's "(no user)" counter rather than escaping the budget.
  const subjectKey = (s: BudgetSubject) => (per === 'tenant' ? `tenant:${s.tenantId ?? '-'}` : `user:${s.tenantId ?? '-'}:${s.userId ?? '(no user)'}`);
  return {
    limit,
    async check(subject) {
      const at = now();
      const start = WINDOW_STARTS[window](new Date(at));
      const used = await store.used(subjectKey(subject), start);
      if (used >= limit) {
        const seconds = Math.max(1, Math.ceil((nextWindowStart(window, start).getTime() - at) / 1000));
        const whom = per === 'tenant' ? (subject.tenantId === undefined ? 'the app' : `tenant ${subject.tenantId}`) : `this user`;
        throw new AiHttpError('AI_BUDGET_EXCEEDED', `The AI token budget of ${whom} for this ${window} is spent (${used} of ${limit} tokens): try again after the ${window} ends, or ask for a higher limit.`, { limit, used, window }, { 'retry-after': String(seconds) });
      }
      return { used, remaining: limit - used };
    },
    async record(usage: ModelUsage) {
      if (usage.totalTokens <= 0) return;
      const start = WINDOW_STARTS[window](new Date(now()));
      await store.add(subjectKey(usage), start, usage.totalTokens);
    },
  };
}

const WINDOW_STARTS: Readonly<Record<BudgetWindow, (at: Date) => Date>> = {
  hour: (at) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), at.getUTCHours())),
  day: (at) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())),
  month: (at) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
};

function nextWindowStart(window: BudgetWindow, start: Date): Date {
  if (window === 'hour') return new Date(start.getTime() + 3_600_000);
  if (window === 'day') return new Date(start.getTime() + 86_400_000);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}
