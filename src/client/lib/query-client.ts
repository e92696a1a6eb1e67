import { QueryClient } from '@tanstack/react-query';

/** The app's one query client; defaults as the spec says ("default options"). */
export const queryClient = new QueryClient();
