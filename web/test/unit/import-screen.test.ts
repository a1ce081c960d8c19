// The import screen's rules, in both languages: which files it takes before sending a byte (in English the
// very words the contract's upload check gives, which the gateway would answer), the column mapping it
// starts an import with and what keeps one from starting, and how the progress and the problems read.

import { IMPORT_PROBLEMS, type ImportProblemReason, importProblem } from '@engram/contracts/import-problems';
import { columnMapping } from '@engram/contracts/imports';
import { createUploadInput, MAX_IMPORT_BYTES } from '@engram/contracts/media';
import { afterEach, describe, expect, it } from 'vitest';
import { fileRefusal } from '../../src/features/import/choose-file.ts';
import { mappingOf, mappingProblems, sidesInFront } from '../../src/features/import/mapping.ts';
import { delimiterName, problemText, progressText } from '../../src/features/import/wording.ts';
import { setLocale } from '../../src/lib/i18n.ts';

afterEach(() => setLocale('en'));

/** What the contract's upload check says of a file to import, or undefined when it takes it. */
const contractRefusal = (name: string, size: number) =>
  createUploadInput.safeParse({ name, size, contentType: '', purpose: 'import' }).error?.issues[0]?.message;

describe('choosing a file to import', () => {
  it('takes Anki packages and CSV, TSV or text files up to the limit, whatever the case of their extension', () => {
    for (const name of ['deck.apkg', 'collection.colpkg', 'words.csv', 'WORDS.TSV', 'quizlet.txt']) {
      expect(fileRefusal({ name, size: 1_000 }), name).toBeUndefined();
    }
    expect(fileRefusal({ name: 'huge.apkg', size: MAX_IMPORT_BYTES })).toBeUndefined();
  });

  it.each([
    ['another kind of file', 'notes.pdf', 1_000],
    ['a file over the limit', 'huge.apkg', MAX_IMPORT_BYTES + 1],
    ['an empty file', 'empty.csv', 0],
  ])('refuses %s in the contract’s words', (_what, name, size) => {
    const said = contractRefusal(name, size);
    expect(said).toBeDefined();
    expect(fileRefusal({ name, size })).toBe(said);
  });

  it('refuses them in Portuguese too, naming the limit', () => {
    setLocale('pt-BR');
    expect(fileRefusal({ name: 'notes.pdf', size: 1 })).toBe(
      'Importe um pacote do Anki (.apkg, .colpkg) ou um arquivo CSV, TSV ou de texto.',
    );
    expect(fileRefusal({ name: 'huge.apkg', size: MAX_IMPORT_BYTES + 1 })).toBe(
      'Um arquivo para importar pode ter no máximo 2 GB.',
    );
  });
});

describe('the column mapping', () => {
  it('gives each role its column, leaving out tags and type when no column holds them', () => {
    expect(mappingOf(['front', 'back', 'ignore', 'tags'])).toEqual({ front: 0, back: 1, tags: 3 });
    expect(mappingOf(['type', 'back', 'front'])).toEqual({ front: 2, back: 1, type: 0 });
    expect(columnMapping.safeParse(mappingOf(['front', 'back'])).success).toBe(true);
  });

  it('has no problem with a column for the front and one for the back', () => {
    expect(mappingProblems(['front', 'back', 'tags', 'type', 'ignore'])).toEqual({});
    expect(sidesInFront(['front', 'back'])).toBe(false);
  });

  it('takes a front column alone as holding both sides, split at a line of --- as Mochi writes its cards', () => {
    expect(mappingOf(['ignore', 'front', 'tags'])).toEqual({ front: 1, tags: 2 });
    expect(mappingProblems(['ignore', 'front', 'tags'])).toEqual({});
    expect(sidesInFront(['ignore', 'front', 'tags'])).toBe(true);
    expect(columnMapping.safeParse(mappingOf(['front'])).success).toBe(true);
  });

  it('asks for a column for the front in the contract’s words', () => {
    const [contractSays] = columnMapping.safeParse({ front: -1, back: 0 }).error?.issues ?? [];
    expect(mappingProblems(['ignore', 'tags'])).toEqual({ front: contractSays?.message });
    expect(mappingProblems(['back', 'ignore'])).toEqual({ front: 'Choose a column.' });
    expect(sidesInFront(['back', 'ignore'])).toBe(false);
  });

  it('names the columns when several are set to one role', () => {
    expect(mappingProblems(['front', 'back', 'front', 'front'])).toEqual({
      front: 'Only one column can hold this; now columns 1, 3, and 4 do.',
    });
    expect(mappingProblems(['front', 'back', 'tags', 'tags'])).toEqual({
      tags: 'Only one column can hold this; now columns 3 and 4 do.',
    });
    setLocale('pt-BR');
    expect(mappingProblems(['front', 'back', 'back'])).toEqual({
      back: 'Só uma coluna pode conter isto; agora são as colunas 2 e 3.',
    });
    expect(mappingProblems(['back'])).toEqual({ front: 'Escolha uma coluna.' });
  });
});

describe('a running import', () => {
  it('counts rows of a CSV file and notes of an Anki package, as the reader writes numbers', () => {
    const running = { status: 'running', progress: { done: 1200, total: 4000 } } as const;
    expect(progressText({ ...running, format: 'apkg' })).toBe('1,200 of 4,000 notes');
    expect(progressText({ ...running, format: 'csv' })).toBe('1,200 of 4,000 rows');
    setLocale('pt-BR');
    expect(progressText({ ...running, format: 'colpkg' })).toBe('1.200 de 4.000 notas');
    expect(progressText({ ...running, format: 'tsv' })).toBe('1.200 de 4.000 linhas');
  });

  it('says it waits or reads the file before it knows how much there is', () => {
    expect(progressText({ status: 'queued', format: 'apkg', progress: { done: 0, total: 0 } })).toBe(
      'Waiting for its turn…',
    );
    expect(progressText({ status: 'running', format: 'apkg', progress: { done: 0, total: 0 } })).toBe(
      'Reading the file…',
    );
  });

  it('names each skipped row by its line, and a problem of no line by itself', () => {
    expect(problemText({ line: 4, message: 'The front is empty.' })).toBe('Line 4: The front is empty.');
    expect(problemText({ message: 'The file is not an Anki package.' })).toBe('The file is not an Anki package.');
    setLocale('pt-BR');
    // A problem without a reason (from an older service) keeps its English words.
    expect(problemText({ line: 12, message: 'The back is empty.' })).toBe('Linha 12: The back is empty.');
  });

  it("words each problem by its reason in the learner's language, its values filled in", () => {
    const tooLong = importProblem('frontTooLong', { max: '2000' });
    const missing = importProblem('fileMissing', { name: 'bark.mp3' });
    const cloze = importProblem('clozeNoDeletion');
    // In English, the very words the cards service answers.
    for (const problem of [tooLong, missing, cloze, importProblem('notZip'), importProblem('backEmptySplit')]) {
      expect(problemText(problem)).toBe(problem.message);
    }
    setLocale('pt-BR');
    expect(problemText({ line: 7, ...tooLong })).toBe('Linha 7: A frente tem mais de 2.000 caracteres.');
    expect(problemText(missing)).toBe('O arquivo "bark.mp3" não está no pacote, então ficou de fora.');
    expect(problemText(importProblem('notZip'))).toBe('Este arquivo não é um pacote do Anki (.apkg ou .colpkg).');
    expect(problemText(cloze)).not.toBe(cloze.message);
  });

  it('has words in English and Portuguese for every reason an import may give, the English the service’s own', () => {
    const values = {
      max: '9',
      name: 'x.png',
      limit: '1 MB',
      tags: 't',
      type: 'x',
      quota: '1 MB',
      used: '0 MB',
      count: '1200',
      minutes: '30',
      attempts: '3',
    };
    for (const reason of Object.keys(IMPORT_PROBLEMS) as ImportProblemReason[]) {
      const english = (IMPORT_PROBLEMS[reason] as (values: Record<string, string>) => string)(values);
      setLocale('en');
      expect(problemText({ reason, values, message: '' }), reason).toBe(english);
      setLocale('pt-BR');
      expect(problemText({ reason, values, message: '' }), reason).not.toBe(english);
    }
  });

  it('names the delimiter the preview found', () => {
    expect([',', ';', '\t', '|', '^'].map(delimiterName)).toEqual([
      'commas',
      'semicolons',
      'tabs',
      'vertical bars (|)',
      '“^”',
    ]);
  });
});
