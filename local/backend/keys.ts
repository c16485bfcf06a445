/**
 * Local secrets of the embedded backend. Well known on purpose (as `supabase start`'s demo keys are):
 * they sign tokens that only this local stand-in accepts.
 */
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { EMBEDDED_ANON_KEY } from '../../src/lib/supabase/embedded-keys';

const LOCAL_JWT_SECRET = 'embedded-backend-local-jwt-secret-not-for-production-use';
export const LOCAL_ANON_KEY = EMBEDDED_ANON_KEY;
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJlbWJlZGRlZC1iYWNrZW5kIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImlhdCI6MTc2Mzc2OTYwMCwiZXhwIjoyMDc5MTI5NjAwfQ.zZpefoVxFACuq39m2J-8_BhlIOwRsSQrmEAoADLlGhA';

const key = new TextEncoder().encode(LOCAL_JWT_SECRET);

type ApiRole = 'anon' | 'authenticated' | 'service_role';
export interface Claims extends JWTPayload {
  role: ApiRole;
  sub?: string;
  email?: string;
  session_id?: string;
}

export class JwtError extends Error {
  constructor(
    message: string,
    readonly expired: boolean,
  ) {
    super(message);
  }
}

export async function verifyToken(token: string): Promise<Claims> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    if (payload.role !== 'anon' && payload.role !== 'authenticated' && payload.role !== 'service_role') {
      throw new JwtError('JWT role is not one of anon, authenticated, service_role', false);
    }
    return payload as Claims;
  } catch (error) {
    if (error instanceof JwtError) throw error;
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
    throw new JwtError(expired ? 'JWT expired' : 'JWT could not be verified', expired);
  }
}

export function signToken(claims: Claims, expiresInSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(key);
}
