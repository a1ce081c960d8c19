// A service's Engram name comes from its generated definition: the package after `engram.`, the same for
// every gRPC service one process answers, and never a guess for something else.
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { AiServiceClient, AiServiceService } from '@engram/proto/ai/v1/ai';
import { CardsServiceClient, CardsServiceService } from '@engram/proto/cards/v1/cards';
import { MetricsServiceService } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceService } from '@engram/proto/cards/v1/review';
import { SettingsServiceService } from '@engram/proto/cards/v1/settings';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';

const method = (path: string) => ({
  path,
  requestStream: false,
  responseStream: false,
  requestSerialize: (value: unknown) => Buffer.from(String(value)),
  requestDeserialize: (bytes: Buffer) => bytes,
  responseSerialize: (value: unknown) => Buffer.from(String(value)),
  responseDeserialize: (bytes: Buffer) => bytes,
});

describe('the name of a service', () => {
  it('is the package after engram. in its definition', () => {
    expect(serviceNameOf(AiServiceService)).toBe('ai');
    expect(serviceNameOf(OrganizationsServiceService)).toBe('organizations');
  });

  it('is the same from a client class as from the service definition', () => {
    expect(serviceNameOf(CardsServiceClient.service)).toBe(serviceNameOf(CardsServiceService));
    expect(serviceNameOf(AiServiceClient.service)).toBe('ai');
  });

  it('is the process’s name for every gRPC service it answers', () => {
    for (const definition of [
      CardsServiceService,
      ReviewServiceService,
      MetricsServiceService,
      SettingsServiceService,
    ]) {
      expect(serviceNameOf(definition)).toBe('cards');
    }
  });

  it('is refused for a definition outside engram, without methods, or of two packages', () => {
    expect(() => serviceNameOf({ Check: method('/grpc.health.v1.Health/Check') } as ServiceDefinition)).toThrow(
      /Not one Engram service/,
    );
    expect(() => serviceNameOf({} as ServiceDefinition)).toThrow(/without methods/);
    expect(() =>
      serviceNameOf({
        A: method('/engram.cards.v1.CardsService/A'),
        B: method('/engram.ai.v1.AiService/B'),
      } as ServiceDefinition),
    ).toThrow(/Not one Engram service/);
  });
});
