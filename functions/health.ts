/** Liveness check for deploy monitors and the local server's start-up wait. */
import { handle, json, type FunctionConfig } from './_lib/http';

export default handle(async () => json({ ok: true }));

export const config: FunctionConfig = { path: '/api/health', method: ['GET'] };
