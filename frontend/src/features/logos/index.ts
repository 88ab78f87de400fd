export { LogosManager } from './logos-manager';
export { useGetLogosQuery } from './logos-api';
