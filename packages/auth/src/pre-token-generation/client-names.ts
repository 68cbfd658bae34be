/** Finds an app client's name from its id (the trigger's event carries the id only). */
export type ClientNameLookup = (userPoolId: string, clientId: string) => Promise<string | undefined>;

/**
 * Cognito's `DescribeUserPoolClient`, once per client for the life of the container. The SDK is loaded on the first
 * lookup only. A client that does not exist (deleted meanwhile) has no name: its tokens get no role scopes.
 */
export function cognitoClientNames(): ClientNameLookup {
  const names = new Map<string, Promise<string | undefined>>();
  let client: Promise<{ send(command: unknown): Promise<{ UserPoolClient?: { ClientName?: string } }> }> | undefined;
  let Describe: (new (input: { UserPoolId: string; ClientId: string }) => unknown) | undefined;
  return (userPoolId, clientId) => {
    const key = `${userPoolId}/${clientId}`;
    let name = names.get(key);
    if (!name) {
      name = (async () => {
        if (!client) {
          client = import('@aws-sdk/client-cognito-identity-provider').then((sdk) => {
            Describe = sdk.DescribeUserPoolClientCommand;
            return new sdk.CognitoIdentityProviderClient({});
          });
        }
        const cognito = await client;
        try {
          const answer = await cognito.send(new Describe!({ UserPoolId: userPoolId, ClientId: clientId }));
          return answer.UserPoolClient?.ClientName;
        } catch (error) {
          if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
          throw error;
        }
      })();
      // A failed lookup (throttling, network) is not remembered: the next sign-in asks again.
      name.catch(() => names.delete(key));
      names.set(key, name);
    }
    return name;
  };
}
