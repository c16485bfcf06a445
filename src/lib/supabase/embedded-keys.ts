/**
 * The embedded backend's well-known anon key, like the demo keys `supabase start` prints. Public by design:
 * it only identifies the anonymous role, and it is accepted by nothing but the local embedded backend.
 */
export const EMBEDDED_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJlbWJlZGRlZC1iYWNrZW5kIiwicm9sZSI6ImFub24iLCJpYXQiOjE3NjM3Njk2MDAsImV4cCI6MjA3OTEyOTYwMH0.2KF1kAkMXNfB3FpUNvJ1iWM14kAW313FIdT1RIqHFQs';
