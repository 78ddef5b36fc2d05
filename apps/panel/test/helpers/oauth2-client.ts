import type { TestApp } from './app';
import { call } from './app';

export interface CreatedClient {
  id: string;
  secret: string;
}

/** Creates an OAuth2 client as `sessionToken`: the account's, or bound to `serverId`. */
export async function createClient(
  t: TestApp,
  sessionToken: string,
  serverId?: string,
): Promise<CreatedClient> {
  const url = serverId ? `/api/servers/${serverId}/oauth2` : '/api/self/oauth2';
  const res = await call(t, 'POST', url, { token: sessionToken, body: { name: 'bot', description: 'ci' } });
  if (res.statusCode !== 200) throw new Error(`create client: ${res.statusCode} ${res.body}`);
  return res.json<CreatedClient>();
}

/** `POST /oauth2/token` with the client's credentials: the raw answer (401 once the secret is refused). */
export function requestToken(t: TestApp, client: CreatedClient) {
  return call(t, 'POST', '/oauth2/token', {
    body: { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret },
  });
}

/** An access token for the client (throws when the token endpoint refuses). */
export async function accessToken(t: TestApp, client: CreatedClient): Promise<string> {
  const res = await requestToken(t, client);
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
  return res.json<{ access_token: string }>().access_token;
}
