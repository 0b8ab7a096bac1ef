import { describe, expect, it } from 'vitest';
import { amountSchema } from '../../src/schemas/amount';
import { scaleAmount } from '../../src/schemas/amount-scale';

const transferAmount = amountSchema({ positive: true, all: true });
const lookupAmount = amountSchema({ positive: false });

const U128_MAX = (2n ** 128n - 1n).toString();

describe('amounts as a client writes them', () => {
  it.each([
    ['10000000000', '10000000000'],
    ['1.5', '1.5'],
    ['00001', '1'],
    ['000.50', '0.50'],
    [U128_MAX, U128_MAX],
    [42, '42'],
    [Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)],
    [0.25, '0.25'],
    ['ALL', 'ALL'],
  ])('%j is read as %j', (input, text) => {
    expect(transferAmount.parse(input)).toBe(text);
  });

  it.each([
    ['', 'ASCII digits'],
    ['1e3', 'ASCII digits'],
    ['100\u00a0', 'ASCII digits'],
    [' 100', 'ASCII digits'],
    ['\u0661\u0660', 'ASCII digits'],
    ['\uff11', 'ASCII digits'],
    ['+1', 'ASCII digits'],
    ['1.', 'ASCII digits'],
    ['.5', 'ASCII digits'],
    ['1.2.3', 'ASCII digits'],
    ['-1', 'must not be negative'],
    [-1, 'must not be negative'],
    ['0', 'greater than 0'],
    ['0.000', 'greater than 0'],
    [0, 'greater than 0'],
    [(2n ** 128n).toString(), '2^128-1'],
    ['9'.repeat(101), 'more than 100 characters'],
    [Infinity, 'finite'],
    [1e-7, 'exponent'],
    [1.5e-10, 'exponent'],
    [2 ** 53 + 2, 'too large for a JSON number'],
    ['all', 'ASCII digits'],
  ])('%j is refused (%s)', (input, message) => {
    const result = transferAmount.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ message: expect.stringContaining(message), params: { kind: 'NumberFormatError' } });
  });

  it('0 is an amount where no transfer is meant; ALL is not', () => {
    expect(lookupAmount.parse('0')).toBe('0');
    expect(lookupAmount.safeParse('ALL').success).toBe(false);
  });
});

describe('scaling by decimals', () => {
  it.each([
    ['1', 10, 10_000_000_000n],
    ['1.5', 10, 15_000_000_000n],
    ['0.000000000123', 10, 1n],
    ['34028236692093846346337460743.1768211455', 10, 2n ** 128n - 1n],
    ['7', 0, 7n],
    ['7.9', 0, 7n],
  ])('%s with %i decimals is %s base units', (amount, decimals, units) => {
    expect(scaleAmount(amount, decimals)).toBe(units);
  });
});
