import type {
  OtpConfirmBody,
  OtpEnrolment,
  OtpRecoveryBody,
  OtpRecoveryCodes,
  OtpStatus,
  SelfUpdateBody,
  SelfView,
} from '@hearth/contract/accounts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

export const accountKeys = {
  all: ['account'] as const,
  self: () => [...accountKeys.all, 'self'] as const,
  otp: () => [...accountKeys.all, 'otp'] as const,
};

export const selfQuery = queryOptions({
  queryKey: accountKeys.self(),
  queryFn: () => api.get<SelfView>('/api/self'),
});

export const otpStatusQuery = queryOptions({
  queryKey: accountKeys.otp(),
  queryFn: () => api.get<OtpStatus>('/api/self/otp'),
});

export const accountApi = {
  changeInfo: (body: Required<Pick<SelfUpdateBody, 'username' | 'email' | 'password'>>) =>
    api.put<void>('/api/self', body),
  changePassword: (body: Required<Pick<SelfUpdateBody, 'password' | 'newPassword'>>) =>
    api.put<void>('/api/self', body),
  startOtp: () => api.post<OtpEnrolment>('/api/self/otp'),
  /** Enabling answers the first recovery codes, shown once (docs/security.md § Two-factor). */
  confirmOtp: (token: string) =>
    api.put<OtpRecoveryCodes>('/api/self/otp?recoveryCodes=true', { token } satisfies OtpConfirmBody),
  regenerateRecovery: (body: OtpRecoveryBody) => api.post<OtpRecoveryCodes>('/api/self/otp/recovery', body),
  disableOtp: (token: string) => api.delete<void>(`/api/self/otp/${encodeURIComponent(token)}`),
};
