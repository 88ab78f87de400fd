/*
 * nodemailer is loaded when mail is first composed (the outbox) or an SMTP server is configured, not
 * with the portal: ~2 MB of heap that every full collection of the portal's process marks, and a
 * sync on the embedded default runs one every second or so in that process.
 */
/* eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy loading, see above */
export const mailLibrary = () => require('nodemailer') as typeof import('nodemailer');
