import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type AdminLoginRequest,
  adminLoginResponseSchema,
} from '../../../../shared/schemas/admin.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { useAdminToken } from '../admin-token.ts';
import { adminCheckQueryOptions } from './admin-check.ts';

/** POST /api/admin/login */
export const loginAdmin = (credentials: AdminLoginRequest) =>
  apiCall(adminLoginResponseSchema, API_PATHS.adminLogin, { method: 'POST', json: credentials });

/** Logs in, keeps the token and primes the token check so the screen opens at once. */
export function useAdminLogin() {
  const queryClient = useQueryClient();
  const [, setAdminToken] = useAdminToken();
  return useMutation({
    mutationFn: loginAdmin,
    onSuccess: (response, credentials) => {
      queryClient.setQueryData(adminCheckQueryOptions(response.token).queryKey, {
        message: response.message,
        username: credentials.username.trim(),
        expiresAt: response.expiresAt,
      });
      setAdminToken(response.token);
    },
  });
}
