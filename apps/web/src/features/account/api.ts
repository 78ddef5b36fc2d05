import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface Self {
  id: string | number;
  username: string;
  email: string;
}

export interface OtpEnrolment {
  secret: string;
  img: string;
}

export const accountKeys = {
  all: ['account'] as const,
  self: () => [...accountKeys.all, 'self'] as const,
  otp: () => [...accountKeys.all, 'otp'] as const,
};

export const selfQuery = queryOptions({
  queryKey: accountKeys.self(),
  queryFn: () => api.get<Self>('/api/self'),
});

export const otpStatusQuery = queryOptions({
  queryKey: accountKeys.otp(),
  queryFn: () => api.get<{ otpEnabled: boolean }>('/api/self/otp'),
});

export const accountApi = {
  changeInfo: (body: { username: string; email: string; password: string }) =>
    api.put<void>('/api/self', body),
  changePassword: (body: { password: string; newPassword: string }) => api.put<void>('/api/self', body),
  startOtp: () => api.post<OtpEnrolment>('/api/self/otp'),
  confirmOtp: (token: string) => api.put<void>('/api/self/otp', { token }),
  disableOtp: (token: string) => api.delete<void>(`/api/self/otp/${encodeURIComponent(token)}`),
};
