/**
 * The confirmation page's steps: read the link's token from the fragment, say what it is for, and post the
 * reader's answer to /api/email-confirm. Both answers wait for a press of their button, so a mail program that opens
 * (or runs) links to scan them answers nothing; the email's "This wasn't me" link shows only that button.
 */
import { CONSENT } from '@/config/constants';
import { SITE } from '@/config/site';
import { postForSentence, tokenFromFragment } from './email-link';

const NO_TOKEN = `This link is missing its code. Please use the link in the email exactly as it came, or write to ${SITE.email}.`;
const DECLINE_QUESTION = "Didn't ask for this? Press the button and this address will not be signed up.";
const FAILED = `We could not record your answer just now. Please try the link again in a moment, or write to ${SITE.email}.`;

/** What a token's first letters say it is for (the server checks the rest). */
const QUESTIONS: Record<string, { question: string; confirm: string }> = {
  nc: { question: `Subscribe this address to the ${SITE.name} newsletter?`, confirm: 'Yes, subscribe me' },
  ac: { question: `Email this address once when the book you asked about is available?`, confirm: 'Yes, email me when it is available' },
};

export function answerFromLink(page: Document): void {
  const status = page.querySelector('[data-confirm-status]');
  const question = page.querySelector('[data-confirm-question]');
  const choices = page.querySelector<HTMLElement>('[data-confirm-choices]');
  if (!status || !question || !choices) return;
  const token = tokenFromFragment(page.location.hash);
  const asked = QUESTIONS[token.slice(0, 2)];
  if (!token || !asked) {
    question.textContent = NO_TOKEN;
    return;
  }
  question.textContent = asked.question;
  const confirmButton = choices.querySelector<HTMLButtonElement>('[data-confirm-answer="confirm"]');
  if (confirmButton) confirmButton.textContent = asked.confirm;

  async function send(answer: 'confirm' | 'decline'): Promise<void> {
    for (const button of choices!.querySelectorAll('button')) button.disabled = true;
    status!.textContent = answer === 'confirm' ? 'Confirming...' : 'Saving your answer...';
    try {
      const said = await postForSentence(CONSENT.confirmApiPath, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, answer }) });
      status!.textContent = said ?? FAILED;
      choices!.hidden = true;
    } catch {
      status!.textContent = FAILED;
      for (const button of choices!.querySelectorAll('button')) button.disabled = false;
    }
  }

  // The email's "This wasn't me" link offers only that answer; it too waits for a press, so a mail program
  // that opens links to scan them cannot delete a sign-up the reader is about to confirm.
  if (new URLSearchParams(page.location.search).get('answer') === 'decline') {
    question.textContent = DECLINE_QUESTION;
    confirmButton?.remove();
  }
  choices.hidden = false;
  for (const button of choices.querySelectorAll<HTMLButtonElement>('[data-confirm-answer]')) {
    button.addEventListener('click', () => void send(button.dataset.confirmAnswer === 'decline' ? 'decline' : 'confirm'));
  }
}
