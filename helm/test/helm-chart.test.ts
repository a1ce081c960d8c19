// The chart renders with the real Helm for every values file, passes `helm lint --strict`, produces only
// objects valid against the Kubernetes schemas, rejects wrong keys and types through values.schema.json,
// and ships a README whose values table is generated from values.yaml.

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { documentedValues, leafPaths, readChartFile, regenerateReadme } from '../tools/chart-readme.ts';
import { helmLint, helmTemplate, PROFILES, renderProfile, valuesFiles } from './helm-support.ts';
import { validateKubernetesObject } from './kubernetes-schemas.ts';

describe.each(PROFILES)('with the %s values', (profile) => {
  it('renders with helm template', () => {
    const result = helmTemplate({ values: valuesFiles(profile) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('passes helm lint --strict', () => {
    const result = helmLint({ values: valuesFiles(profile) });
    expect(result.stdout + result.stderr).toContain('0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it('renders only objects that are valid against the Kubernetes schemas', () => {
    const objects = renderProfile(profile);
    expect(objects.length).toBeGreaterThan(18);
    for (const object of objects) validateKubernetesObject(object);
  });
});

describe('the offline Kubernetes validation', () => {
  it('rejects an object that breaks its schema, and a kind it has no schema for', () => {
    const [deployment] = renderProfile('default').filter((o) => o.kind === 'Deployment');
    if (!deployment) throw new Error('no Deployment rendered');
    expect(() => validateKubernetesObject({ ...deployment, spec: { ...deployment.spec, replicas: 'two' } })).toThrow(
      /replicas must be integer/,
    );
    expect(() => validateKubernetesObject({ ...deployment, apiVersion: 'apps/v1beta1' })).toThrow(/no schema/);
  });
});

describe('values.schema.json', () => {
  const expectRejected = (result: { status: number | null; stderr: string }, message: RegExp) => {
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(message);
  };

  it('rejects a misspelt key in helm template and helm lint', () => {
    const options = { set: ['gateway.replicaCuont=2'] };
    expectRejected(helmTemplate(options), /gateway: Additional property replicaCuont is not allowed/);
    const lint = helmLint(options);
    expect(lint.status).not.toBe(0);
    expect(lint.stdout + lint.stderr).toMatch(/Additional property replicaCuont is not allowed/);
  });

  it('rejects a misspelt top-level or nested key', () => {
    expectRejected(helmTemplate({ set: ['networkPolicy.enable=true'] }), /Additional property enable is not allowed/);
    expectRejected(helmTemplate({ set: ['ingres.enabled=true'] }), /Additional property ingres is not allowed/);
    expectRejected(
      helmTemplate({ json: { cards: { image: { repo: 'x' } } } }),
      /cards.image: Additional property repo is not allowed/,
    );
  });

  it('rejects a value of the wrong type', () => {
    expectRejected(
      helmTemplate({ setString: ['gateway.replicaCount=two'] }),
      /gateway.replicaCount: Invalid type. Expected: integer, given: string/,
    );
    expectRejected(
      helmTemplate({ json: { identity: { autoscaling: { enabled: 'yes' } } } }),
      /identity.autoscaling.enabled: Invalid type. Expected: boolean, given: string/,
    );
    expectRejected(helmTemplate({ json: { logLevel: 'verbose' } }), /logLevel/);
  });

  it('accepts the values every values file sets', () => {
    for (const profile of PROFILES) expect(helmTemplate({ values: valuesFiles(profile) }).status).toBe(0);
  });
});

describe('the chart README', () => {
  it('has the values table that scripts/chart-readme.ts generates from values.yaml', () => {
    const readme = readChartFile('README.md');
    expect(regenerateReadme(readme, readChartFile('values.yaml'))).toBe(readme);
  });

  it('documents every value in values.yaml, on itself or on the object holding it', () => {
    const valuesYaml = readChartFile('values.yaml');
    const documented = documentedValues(valuesYaml).map((d) => d.key);
    const undocumented = leafPaths(parse(valuesYaml)).filter(
      (leaf) => !documented.some((key) => leaf === key || leaf.startsWith(`${key}.`)),
    );
    expect(undocumented).toEqual([]);
  });

  it('reads descriptions the helm-docs way: continued comment lines, nested keys, list items skipped', () => {
    const sample = [
      'a:',
      '  # -- First line',
      '  # and its continuation.',
      '  b: 1',
      '  c: 2',
      '  # -- A list.',
      '  d:',
      '    - e: 3',
      '      f: 4',
      '  # -- After the list.',
      '  g: 5',
      '# A plain comment describes nothing.',
      'h: 6',
    ].join('\n');
    expect(documentedValues(sample)).toEqual([
      { key: 'a.b', description: 'First line and its continuation.' },
      { key: 'a.d', description: 'A list.' },
      { key: 'a.g', description: 'After the list.' },
    ]);
  });
});
