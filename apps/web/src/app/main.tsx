import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { installChunkErrorHandler } from '../lib/chunk-reload';
import { installErrorCapture } from '../lib/error-log';
import { Providers } from './providers';
import { createAppRouter } from './router';
import './page-registry';
import '../layout/shell.css';

installErrorCapture();
installChunkErrorHandler();
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
