// Text as a model reads it, for checks that look for markup: zero-width and other invisible
// format characters dropped, compatibility forms (full-width `＜`, `Ｈｕｍａｎ`) folded by NFKC,
// angle-bracket look-alikes NFKC leaves alone mapped to `<` `>`, and Cyrillic and Greek
// letters that look Latin mapped to those. Each character keeps
// where it came from, so a finding can be escaped in the original text, nothing removed.

/**
 * Invisible characters: format characters (zero-width space and joiners, word joiner, BOM,
 * soft hyphen, bidi controls, tag characters), variation selectors, the combining grapheme
 * joiner and the Hangul fillers.
 */
const FORMAT = /^\p{Cf}$/u;
const INVISIBLE_MARKS = new Set([0x034f, 0x115f, 0x1160, 0x3164, 0xffa0]);

function isInvisible(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (
    FORMAT.test(char) ||
    INVISIBLE_MARKS.has(code) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xe0100 && code <= 0xe01ef)
  );
}

/** Brackets a model reads as `<` `>` that NFKC does not fold. */
const ANGLE_LOOKALIKES: ReadonlyMap<string, string> = new Map([
  ['\u2039', '<'], // ‹
  ['\u203A', '>'], // ›
  ['\u2329', '<'], // 〈 (NFKC folds it to U+3008, not to `<`)
  ['\u232A', '>'],
  ['\u3008', '<'], // 〈
  ['\u3009', '>'],
  ['\u27E8', '<'], // ⟨
  ['\u27E9', '>'],
  ['\u276E', '<'], // ❮
  ['\u276F', '>'],
  ['\u02C2', '<'], // ˂
  ['\u02C3', '>'],
  ['\u1438', '<'], // ᐸ
  ['\u1433', '>'],
]);

/**
 * Cyrillic and Greek letters drawn like Latin ones (`sуstem` with a Cyrillic `у`): a model reads
 * the word, so the check does too. Folding them only matters where the result spells a tag.
 */
const LATIN_LOOKALIKES: ReadonlyMap<string, string> = new Map([
  // Cyrillic lower case
  ['а', 'a'],
  ['е', 'e'],
  ['о', 'o'],
  ['р', 'p'],
  ['с', 'c'],
  ['у', 'y'],
  ['х', 'x'],
  ['і', 'i'],
  ['ѕ', 's'],
  ['ј', 'j'],
  ['ԁ', 'd'],
  ['ӏ', 'l'],
  ['һ', 'h'],
  ['ԛ', 'q'],
  ['ԝ', 'w'],
  ['ѵ', 'v'],
  ['ԍ', 'g'],
  ['ո', 'n'],
  ['м', 'm'],
  ['т', 't'],
  ['к', 'k'],
  // Cyrillic upper case
  ['А', 'A'],
  ['В', 'B'],
  ['Е', 'E'],
  ['К', 'K'],
  ['М', 'M'],
  ['Н', 'H'],
  ['О', 'O'],
  ['Р', 'P'],
  ['С', 'C'],
  ['Т', 'T'],
  ['Х', 'X'],
  ['У', 'Y'],
  ['І', 'I'],
  ['Ѕ', 'S'],
  // Greek
  ['α', 'a'],
  ['ε', 'e'],
  ['ι', 'i'],
  ['κ', 'k'],
  ['ν', 'v'],
  ['ο', 'o'],
  ['ρ', 'p'],
  ['τ', 't'],
  ['υ', 'u'],
  ['χ', 'x'],
  ['Α', 'A'],
  ['Β', 'B'],
  ['Ε', 'E'],
  ['Ζ', 'Z'],
  ['Η', 'H'],
  ['Ι', 'I'],
  ['Κ', 'K'],
  ['Μ', 'M'],
  ['Ν', 'N'],
  ['Ο', 'O'],
  ['Ρ', 'P'],
  ['Τ', 'T'],
  ['Υ', 'Y'],
  ['Χ', 'X'],
]);

export interface FoldedText {
  /** The folded text the checks match against. */
  text: string;
  /** The offset in the original of the character folded character `index` came from. */
  startOf(index: number): number;
  /** The offset in the original just after that character. */
  endOf(index: number): number;
}

/**
 * Printable ASCII, tabs and line breaks: nothing in it is invisible, a look-alike or changed by
 * NFKC, so it folds to itself (most text does: no per-character tables for it).
 */
const PLAIN = /^[\t\n\r\x20-\x7e]*$/;

const itself = (index: number) => index;
const afterItself = (index: number) => index + 1;

export function foldLookalikes(original: string): FoldedText {
  if (PLAIN.test(original)) return { text: original, startOf: itself, endOf: afterItself };
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  let offset = 0;
  for (const char of original) {
    const next = offset + char.length;
    if (!isInvisible(char)) {
      const folded =
        ANGLE_LOOKALIKES.get(char) ?? LATIN_LOOKALIKES.get(char) ?? char.normalize('NFKC');
      for (let i = 0; i < folded.length; i++) {
        start.push(offset);
        end.push(next);
      }
      text += folded;
    }
    offset = next;
  }
  return { text, startOf: (index) => start[index]!, endOf: (index) => end[index]! };
}
