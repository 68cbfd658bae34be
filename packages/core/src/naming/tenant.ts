/**
 * A user's tenant in a multi-tenant app, one rule for every place that reads or writes it: the seeded users of a
 * stage (`auth.users[].tenant`), `service.auth.createUser({ tenant })`, the Cognito custom attribute, the claim of
 * their tokens, and `@framework-pro/tenancy`'s default tenant id rule.
 */

/** The Cognito custom attribute that holds a user's tenant (declared on every pool the framework creates). */
export const TENANT_ATTRIBUTE = 'tenant_id';

/** The claim a user's access and ID tokens carry their tenant in (Cognito names custom attributes `custom:<name>`). */
export const TENANT_CLAIM = `custom:${TENANT_ATTRIBUTE}`;

/** A tenant id: 1 to 64 letters, digits, "-" or "_", starting with a letter or digit (it becomes part of keys and prefixes). */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
