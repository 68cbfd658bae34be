import { TENANT_CLAIM } from '@framework/core/names';

export { TENANT_CLAIM };

/**
 * The claims the access token gets for the user's tenant: `custom:tenant_id` with the value of the user's attribute of
 * that name (`request.userAttributes`), which only admin calls write (no app client may). The ID token carries the
 * attribute already; the access token, which the runtime and the tenancy middleware read, carries no custom attribute
 * unless the trigger adds it. A user without the attribute (or with an empty value) gets no claim, never an empty one.
 */
export function accessTokenTenantClaims(userAttributes: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const tenant = userAttributes && Object.hasOwn(userAttributes, TENANT_CLAIM) ? userAttributes[TENANT_CLAIM] : undefined;
  return typeof tenant === 'string' && tenant !== '' ? { [TENANT_CLAIM]: tenant } : {};
}
