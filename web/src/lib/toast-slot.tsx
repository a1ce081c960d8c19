// Where the toast stack goes in the page: nothing until the first toast, then lib/toaster.tsx (loaded then).
import { lazy, Suspense } from 'react';
import { toasterMounted, useToasterWanted } from './toast';

const ToastStack = lazy(() => import('./toaster').then((module) => ({ default: module.ToastStack })));

export function AppToaster() {
  const wanted = useToasterWanted();
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastStack onMounted={toasterMounted} />
    </Suspense>
  );
}
