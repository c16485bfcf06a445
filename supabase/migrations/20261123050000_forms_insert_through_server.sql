-- Newsletter sign-ups and contact messages are stored by /api/send-notification with the service role,
-- after its bot-check, so that nobody can post rows straight to /rest/v1 with the public key, without
-- a bot-check token and without the function's rate limit.
drop policy if exists "anyone subscribes" on public.newsletter_subscriptions;
drop policy if exists "anyone writes to us" on public.contact_submissions;
revoke insert on public.newsletter_subscriptions, public.contact_submissions from anon, authenticated;
