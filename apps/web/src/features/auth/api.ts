import { api } from '../../api/client';

export interface SessionReply {
  session: string;
  scopes: string[];
}

export type LoginReply = SessionReply | { otpNeeded: true };

/** Register may answer with `token` (PufferPanel) or `session`; scopes may be missing. */
export interface RegisterReply {
  session?: string;
  token?: string;
  scopes?: string[];
}

export interface NewAccount {
  username: string;
  email: string;
  password: string;
}

export const authApi = {
  login: (body: { email: string; password: string }) => api.post<LoginReply>('/auth/login', body),
  otp: (token: string) => api.post<SessionReply>('/auth/otp', { token }),
  register: (body: NewAccount) => api.post<RegisterReply>('/auth/register', body),
  setup: (body: NewAccount & { token: string }) => api.post<SessionReply>('/auth/setup', body),
  invite: (body: { token: string; username: string; password: string }) =>
    api.post<SessionReply>('/auth/invite', body),
};

export function isOtpNeeded(reply: LoginReply): reply is { otpNeeded: true } {
  return 'otpNeeded' in reply && reply.otpNeeded;
}
