/**
 * The visitor's country, from Netlify's geolocation of their IP, and whether its law asks for consent before
 * analytics cookies. The analytics script asks once a visit, only while the visitor has made no choice.
 * An unknown country counts as needing consent, so the visitor is asked.
 */
import { consentRequiredIn, type VisitorRegion } from '../src/features/analytics/consent';
import { handle, json, type FunctionConfig } from './_lib/http';

const COUNTRY_CODE = /^[A-Z]{2}$/;

export default handle(async (_request, context) => {
  const code = context?.geo?.country?.code?.trim().toUpperCase();
  const country = code && COUNTRY_CODE.test(code) ? code : null;
  const answer: VisitorRegion = { country, consentRequired: consentRequiredIn(country) };
  return json(answer);
});

export const config: FunctionConfig = { path: '/api/visitor-region', method: ['GET'] };
