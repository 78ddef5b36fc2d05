import type { InviteAcceptBody } from '@hearth/contract/accounts';
import type {
  LoginBody,
  LoginResponse,
  OtpBody,
  PasswordForgotBody,
  PasswordResetBody,
  RegisterBody,
  RegisterResponse,
  SessionResponse,
  SetupBody,
} from '@hearth/contract/auth';
import { api } from '../../api/client';

export const authApi = {
  login: (body: LoginBody) => api.post<LoginResponse>('/auth/login', body),
  otp: (token: string) => api.post<SessionResponse>('/auth/otp', { token } satisfies OtpBody),
  register: (body: RegisterBody) => api.post<RegisterResponse>('/auth/register', body),
  setup: (body: SetupBody) => api.post<SessionResponse>('/auth/setup', body),
  checkSetup: (token: string) => api.post<void>('/auth/setup/check', { token }),
  invite: (body: InviteAcceptBody) => api.post<SessionResponse>('/auth/invite', body),
  forgotPassword: (email: string) =>
    api.post<void>('/auth/password/forgot', { email } satisfies PasswordForgotBody),
  resetPassword: (body: PasswordResetBody) => api.post<void>('/auth/password/reset', body),
};

export function isOtpNeeded(reply: LoginResponse): reply is Extract<LoginResponse, { otpNeeded: true }> {
  return 'otpNeeded' in reply && reply.otpNeeded;
}
