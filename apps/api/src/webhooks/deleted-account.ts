/**
 * A deleted account's webhooks (docs/decisions.md, "Deleting an account"): nothing more goes to its
 * addresses. The delivery and the challenge read this with the row they send from, so an event or a
 * challenge of any age, in any process, ends instead of being sent.
 */

/** SQL, a boolean: whether the account whose id is the expression `accountId` was deleted (one user per account). */
export const accountDeletedSql = (accountId: string) => `EXISTS (SELECT 1 FROM users du WHERE du.account_id = ${accountId} AND du.deleted_at IS NOT NULL)`;

/** What an event or an address of a deleted account ends with (last_error) and what is logged. */
export const ACCOUNT_DELETED = 'the account was deleted; nothing more is sent to its callback addresses';
