// A request's budget for the answers it reads, as the sockets see it. A request runs its calls
// inside `answerBudgets.run(budget, ...)`; the socket notes the budget with each request it sends
// (the context the call was made in), and an answer longer than what that request may still
// read is refused by its length, before any client parses it: the call fails with an error
// answer instead, and the request then answers 502 naming its bound. A node sending blocks of the
// largest size costs one decode of the last one, not its parse and hashing.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AnswerBudget {
  /** Whether an answer of `chars` characters fits; when it does not, the request counts it as read (its next check fails). */
  fits(chars: number): boolean;
}

export const answerBudgets = new AsyncLocalStorage<AnswerBudget>();

/** The JSON-RPC error code of an answer refused for its request's budget (server-defined range). */
export const OVER_BUDGET_CODE = -32099;
