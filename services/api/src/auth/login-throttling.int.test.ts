import request from 'supertest';
import { addressKey } from './attempts';
import { startTestApi, type TestApi } from '../testing/harness';

// argon2id is deliberately slow, and other suites run in parallel.
jest.setTimeout(120_000);

describe('sign-in throttling that cannot be raced and cannot lock the owner out', () => {
  let api: TestApi;
  const logs: string[] = [];
  beforeAll(async () => {
    // a trusted proxy in front: X-Forwarded-For names the client, as behind the operator's proxy
    api = await startTestApi({ logs, trustProxy: true });
  });
  afterAll(() => api.close());

  const loginFrom = (address: string, email: string, password: string) =>
    request(api.app).post('/api/auth/login').set('X-Forwarded-For', address).send({ email, password });

  it('counts a burst of parallel wrong passwords before checking them: at most 5 are checked', async () => {
    const email = 'burst@example.it';
    const { code } = await api.inviteClient(email);
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginFrom('203.0.113.7', email, `wrong-${i}`)),
    );
    const checked = burst.filter((res) => res.status === 401);
    const refused = burst.filter((res) => res.status === 429);
    expect(checked).toHaveLength(5);
    expect(refused).toHaveLength(25);
    for (const res of refused) {
      expect(res.body.code).toBe('A003');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // the attacker's address stays refused, even with the right password …
    expect((await loginFrom('203.0.113.7', email, code)).status).toBe(429);
    // … while the owner signs in from another address
    expect((await loginFrom('198.51.100.20', email, code)).status).toBe(200);
    // failed attempts are logged with account and address, never the password
    const failures = logs.filter((line) => line.includes('sign-in failed'));
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(failures.join('\n')).toContain('203.0.113.7');
    expect(logs.join('\n')).not.toContain('wrong-1');
  });

  it('a distributed attack on one account still leaves the owner in from a clean address', async () => {
    const email = 'distribuito@example.it';
    const { code } = await api.inviteClient(email);
    // 20 failures spread over 10 addresses fill the account's allowance
    for (let i = 0; i < 10; i++)
      for (let j = 0; j < 2; j++)
        expect((await loginFrom(`192.0.2.${i + 1}`, email, `wrong-${i}-${j}`)).status).toBe(401);
    // an address that already failed on the account is now refused at once …
    expect((await loginFrom('192.0.2.1', email, code)).status).toBe(429);
    // … one that never failed may still try, and the owner gets in
    expect((await loginFrom('198.51.100.99', email, code)).status).toBe(200);
  });

  it('successful sign-ins never count', async () => {
    const email = 'spesso@example.it';
    const { code } = await api.inviteClient(email);
    for (let i = 0; i < 12; i++) expect((await loginFrom('203.0.113.50', email, code)).status).toBe(200);
  });

  it('counts IPv6 clients by their /64 network', async () => {
    const email = 'ipv6@example.it';
    const { code } = await api.inviteClient(email);
    for (let i = 1; i <= 5; i++)
      expect((await loginFrom(`2001:db8:1:2::${i.toString(16)}`, email, 'wrong')).status).toBe(401);
    // another address of the same /64 is the same client
    expect((await loginFrom('2001:db8:1:2:ffff::1', email, code)).status).toBe(429);
    expect((await loginFrom('2001:db8:1:3::1', email, code)).status).toBe(200);
  });

  it('limits reset requests per address with 429', async () => {
    const answers = [];
    for (let i = 0; i < 12; i++)
      answers.push(
        (
          await request(api.app)
            .post('/api/auth/forgot')
            .set('X-Forwarded-For', '203.0.113.99')
            .send({ email: `nessuno${i}@example.it` })
        ).status,
      );
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(204));
    expect(answers.slice(10)).toEqual([429, 429]);
  });
});

describe('client address keys', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6 and cuts IPv6 to its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
