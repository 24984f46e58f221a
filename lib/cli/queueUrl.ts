import { InputError } from './errors.js';

const SQS_URL = /^https:\/\/sqs\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/\d{12}\/[A-Za-z0-9_-]{1,80}$/;

/** The --queue URL when it is an SQS queue URL (checked before anything is read or loaded). */
export function checkQueueUrl(url: string): string {
  if (!SQS_URL.test(url)) {
    throw new InputError(
      `--queue ${url} is not an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<queue>)`,
    );
  }
  return url;
}
