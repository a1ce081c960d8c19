// Entry point: mounts the router inside the query cache provider, then starts the cookie banner.
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startConsentAfterRender } from './lib/consent-loader';
import { syncDocumentLanguage } from './lib/i18n';
import { queryClient } from './lib/query-client';
import { clearCacheOnUserChange } from './lib/session-cache';
import { followSystemTheme } from './lib/theme';
import { router } from './router';
import './styles.css';

syncDocumentLanguage();
followSystemTheme();
clearCacheOnUserChange(queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
startConsentAfterRender();
