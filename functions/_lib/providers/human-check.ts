/** The bot-check: verifies a form's token on the server. The default without a secret checks nothing. */

/** `unavailable`: no verdict was had (the service did not answer); otherwise the token was judged and refused. */
export type HumanCheckResult = { ok: true } | { ok: false; reason: string; unavailable?: boolean };

export interface HumanCheckProvider {
  name: string;
  /** False for the default: its `verify` passes every request without looking at the token. */
  verifies: boolean;
  verify(token: string, expected: { action: string; hostname: string; remoteIp?: string }): Promise<HumanCheckResult>;
}

export const noHumanCheck: HumanCheckProvider = {
  name: 'off',
  verifies: false,
  async verify() {
    return { ok: true };
  },
};
