/**
 * A user's tenant in a multi-tenant app, one rule for every place that reads or writes it: the seeded users of a
 * stage (`auth.users[].tenant`), `service.auth.createUser({ tenant })`, the Cognito custom attribute, the claim of
 * their tokens, and `@framework-pro/tenancy`'s default tenant id rule.
 */

/**
 * The user pool attribute holding a user's tenant. `@framework/infra` declares it on every user pool it creates (a
 * Cognito custom attribute, so its full name is `custom:tenant_id`); only admin calls may write it.
 */
export const TENANT_ATTRIBUTE = 'tenant_id';

/**
 * The claim carrying a user's tenant in their tokens: the ID token carries the custom attribute as Cognito names it,
 * the access token gets it from the pre-token-generation trigger (`@framework/auth`), `fw dev`'s issuer puts it in
 * both, and API-key callers carry it too. What the runtime and `@framework-pro/tenancy` read.
 */
export const TENANT_CLAIM = `custom:${TENANT_ATTRIBUTE}` as const;

/** A tenant id: 1 to 64 letters, digits, "-" or "_", starting with a letter or digit (it becomes part of keys and prefixes). */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
