// HTTP calls to the server. Sessions ride in the server's HttpOnly cookie.
export class ApiError extends Error {
  constructor(public status: number, message: string, public code?: string) {
    super(message);
  }
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    let msg = res.statusText;
    let code: string | undefined;
    if (typeof data === 'string' && data) msg = data;
    else if (data && typeof data === 'object') {
      // `{"error": {"code", "message"}}` (docs/protocol.md), or the Lichess API's `{"error": "message"}`.
      const e = (data as { error?: unknown }).error;
      if (typeof e === 'string') msg = e;
      else if (e && typeof e === 'object' && 'message' in e) {
        msg = String((e as { message: unknown }).message);
        const c = (e as { code?: unknown }).code;
        if (typeof c === 'string') code = c;
      }
    }
    throw new ApiError(res.status, msg, code);
  }
  return data as T;
}
