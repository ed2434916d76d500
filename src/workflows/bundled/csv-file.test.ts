import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv } from './csv-file.js';

describe("the csv workflow's CSV", () => {
  it('reads quoted fields, doubled quotes and line breaks inside quotes, and skips empty rows', () => {
    expect(parseCsv('id,text\r\n1,"a, ""b""\nc"\n\n2,plain\n')).toEqual({
      header: ['id', 'text'],
      rows: [
        ['1', 'a, "b"\nc'],
        ['2', 'plain'],
      ],
    });
  });

  it.each([
    ['a,a\n1,2\n', 'the header "a" appears twice'],
    ['a,b\n1\n', 'line 2: 1 fields, the header has 2'],
    ['a,b\n"1,2\n', 'line 2: a quoted field is not closed'],
    ['', 'the file has no header row'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseCsv(text)).toThrow(message);
  });

  it('reads back whatever it writes', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', ' ', 'é') });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const nonEmpty = rows.filter((row) => row.some((value) => value !== ''));
          const parsed = parseCsv(toCsv(['x', 'y'], nonEmpty));
          expect(parsed).toEqual({ header: ['x', 'y'], rows: nonEmpty });
        },
      ),
    );
  });
});
