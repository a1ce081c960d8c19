// Proposing an image occlusion card's shapes over a picture: the offline generator finds the regions that look like
// a diagram's labels (dark words on a lighter ground, read in a reader process), never a diagram's lines or its
// shaded parts; Bedrock is sent the picture itself with a tool for the boxes, and what it answers is kept inside
// the picture. Each shape proposed counts as a generated card; a file that is no picture is refused in words.
import { randomUUID } from 'node:crypto';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import sharp, { type OverlayOptions } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiHarness, startAiHarness } from '../harness.js';

const newUser = () => `learner-${randomUUID().slice(0, 8)}`;

/** A word of `letters` dark strokes, as a label's letters stand, at (x, y) in a picture. */
function word(x: number, y: number, letters: number): OverlayOptions[] {
  return Array.from({ length: letters }, (_, n) => ({
    input: { create: { width: 5, height: 14, channels: 3 as const, background: '#111' } },
    left: x + n * 8,
    top: y,
  }));
}

/**
 * A diagram of 640 × 480: a light grey organ (a shaded part), a long thin line pointing at it (a leader line), and
 * two labels: "Aorta" at the top left and "Ventricle" lower right.
 */
const diagram = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: '#fafafa' } })
    .composite([
      { input: { create: { width: 220, height: 200, channels: 3, background: '#d8d8d8' } }, left: 210, top: 140 },
      { input: { create: { width: 300, height: 1, channels: 3, background: '#222' } }, left: 120, top: 80 },
      ...word(40, 60, 5),
      ...word(430, 380, 9),
    ])
    .png()
    .toBuffer();

describe('occlusion proposals, offline', () => {
  let ai: AiHarness;
  beforeAll(async () => {
    ai = await startAiHarness({ generator: 'offline' });
  });
  afterAll(() => ai?.stop());

  it("proposes a box over each of a diagram's labels, unnamed, and counts them as generated cards", async () => {
    const user = newUser();
    const { shapes, generator } = await ai.as(user).proposeOcclusions(await diagram());
    expect(generator).toBe('offline');
    const rounded = shapes.map((shape) => ({
      label: shape.label,
      left: Math.round(shape.left * 100) / 100,
      top: Math.round(shape.top * 100) / 100,
      right: Math.round((shape.left + shape.width) * 100) / 100,
      bottom: Math.round((shape.top + shape.height) * 100) / 100,
    }));
    // Each box covers its label whole (x 40–77 and 430–503 of 640, y 60–74 and 380–394 of 480), with little room.
    expect(rounded).toHaveLength(2);
    const [aorta, ventricle] = rounded;
    expect(aorta?.label).toBe('');
    expect(aorta!.left).toBeLessThanOrEqual(40 / 640);
    expect(aorta!.right).toBeGreaterThanOrEqual(77 / 640);
    expect(aorta!.top).toBeLessThanOrEqual(60 / 480);
    expect(aorta!.bottom).toBeGreaterThanOrEqual(74 / 480);
    expect(aorta!.right - aorta!.left).toBeLessThan(0.12);
    expect(ventricle!.left).toBeLessThanOrEqual(430 / 640);
    expect(ventricle!.right).toBeGreaterThanOrEqual(503 / 640);
    expect(ventricle!.top).toBeLessThanOrEqual(380 / 480);
    expect(ventricle!.bottom).toBeLessThanOrEqual(0.86);
    expect((await ai.as(user).usage()).used).toBe(2);
  });

  it('refuses a file that is no picture, in words, and charges nothing', async () => {
    const user = newUser();
    const failure = await grpcFailure(ai.as(user).proposeOcclusions(Buffer.from('%PDF-1.7 not a picture')));
    expect(failure.code).toBe(status.INVALID_ARGUMENT);
    expect(failure.message).toBe('The picture is not a JPEG, PNG or WebP image.');
    // Its first bytes say PNG, its body is not one: the reader process says so.
    const broken = Buffer.concat([(await diagram()).subarray(0, 16), Buffer.alloc(200)]);
    const unreadable = await grpcFailure(ai.as(user).proposeOcclusions(broken));
    expect(unreadable.message).toBe('The picture could not be read as a JPEG, PNG or WebP image.');
    expect((await ai.as(user).usage()).used).toBe(0);
  });
});

describe('occlusion proposals through Bedrock', () => {
  let ai: AiHarness;
  beforeAll(async () => {
    ai = await startAiHarness({ generator: 'bedrock-single', modelCallTimeoutMs: 1_500, generationTimeoutMs: 2_000 });
  });
  afterAll(() => ai?.stop());

  it('sends the picture with a tool for the boxes, and keeps the named boxes inside the picture', async () => {
    const user = newUser();
    const picture = await diagram();
    ai.bedrock?.script({
      toolInput: JSON.stringify({
        shapes: [
          { label: 'Aorta', left: 0.06, top: 0.12, width: 0.07, height: 0.04 },
          { label: 'Left ventricle', left: 0.95, top: 0.78, width: 0.2, height: 0.05 },
          { label: 'Everything', left: 0, top: 0, width: 1, height: 1 },
          { label: 'Not a box', left: 'x' },
        ],
      }),
    });
    const { shapes, generator } = await ai.as(user).proposeOcclusions(picture, 'pt-BR');
    expect(generator).toBe('bedrock');
    expect(shapes).toEqual([
      { label: 'Aorta', left: 0.06, top: 0.12, width: 0.07, height: 0.04 },
      // Cut at the picture's edge.
      { label: 'Left ventricle', left: 0.95, top: 0.78, width: expect.closeTo(0.05, 5), height: 0.05 },
    ]);
    const sent = ai.bedrock!.requests.at(-1)!;
    expect(sent.operation).toBe('converse');
    const content = sent.body.messages?.[0]?.content as { image?: { format: string; source: { bytes: string } } }[];
    const image = content.find((block) => block.image)?.image;
    expect(image?.format).toBe('png');
    expect(Buffer.from(image?.source.bytes ?? '', 'base64').equals(picture)).toBe(true);
    expect(JSON.stringify(sent.body.messages)).toContain('pt-BR');
    expect(sent.body.toolConfig?.tools?.[0]?.toolSpec?.name).toBe('propose_occlusion_shapes');
    expect((await ai.as(user).usage()).used).toBe(2);
  });

  it('tries a throttled model again, and says the generator is unavailable when it keeps refusing, charging nothing', async () => {
    const user = newUser();
    ai.bedrock?.script(
      { throttle: true },
      { toolInput: JSON.stringify({ shapes: [{ label: 'Aorta', left: 0.1, top: 0.1, width: 0.1, height: 0.05 }] }) },
    );
    expect((await ai.as(user).proposeOcclusions(await diagram())).shapes).toHaveLength(1);
    const fallback = ai.bedrock!.fallback;
    ai.bedrock!.fallback = () => ({ throttle: true });
    try {
      const failure = await grpcFailure(ai.as(user).proposeOcclusions(await diagram()));
      expect(failure.code).toBe(status.UNAVAILABLE);
      expect(failure.message).toBe('The card generator is unavailable right now. Please try again in a moment.');
    } finally {
      ai.bedrock!.fallback = fallback;
    }
    expect((await ai.as(user).usage()).used).toBe(1);
  });
});
