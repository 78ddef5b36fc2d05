/** The few panel calls the CLI's tests make, over real HTTP. */
export interface Admin {
  auth: Record<string, string>;
}

/** Creates the first administrator through the one-time link `hearth start` printed. */
export async function setUpAdmin(panelUrl: string, setupUrl: string): Promise<Admin> {
  const token = new URL(setupUrl).searchParams.get('token');
  const res = await fetch(`${panelUrl}/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'admin',
      email: 'admin@example.com',
      password: 'admin-password-1',
      token,
    }),
  });
  if (res.status !== 200) throw new Error(`setup answered ${res.status}: ${await res.text()}`);
  const { session } = (await res.json()) as { session: string };
  return { auth: { authorization: `Bearer ${session}` } };
}

export interface ListedNode {
  id: string;
  isLocal: boolean;
  privatePort: number;
  sftpPort: number;
  status: string;
}

export async function listNodes(panelUrl: string, admin: Admin): Promise<ListedNode[]> {
  const res = await fetch(`${panelUrl}/api/nodes`, { headers: admin.auth });
  if (res.status !== 200) throw new Error(`GET /api/nodes answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as ListedNode[];
}

/** Lists the nodes until `done` holds (the list never waits for a probe); the cap only bounds a hang. */
export async function nodesUntil(
  panelUrl: string,
  admin: Admin,
  done: (nodes: ListedNode[]) => boolean,
  capMs = 60_000,
): Promise<ListedNode[]> {
  const deadline = Date.now() + capMs;
  for (;;) {
    const nodes = await listNodes(panelUrl, admin);
    if (done(nodes)) return nodes;
    if (Date.now() > deadline) throw new Error(`nodes never reached the state: ${JSON.stringify(nodes)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
