// What better-auth-ui gets when it imports sonner (build/better-auth-ui.ts): sonner's `toast` call shape,
// raising the app's toasts, so the library never pulls sonner into the auth screens' first load.
import { toast as appToast } from '../toast';

export const toast = Object.assign((message: string) => appToast.message(message), appToast);
