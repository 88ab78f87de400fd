export { SignedInLayout } from './signed-in-layout';
export { SignedOutLayout } from './signed-out-layout';
