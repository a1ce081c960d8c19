// Offline validation of rendered objects against the Kubernetes OpenAPI schemas (kubernetes-models), for
// every kind the chart renders. There is no cluster here, so this stands in for the API server's schema
// check. Limits: those schemas are open (an unknown field passes), and CRDs such as the Prometheus
// Operator's ServiceMonitor are not in them, so a ServiceMonitor gets a minimal shape check instead.
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import type { KubeObject } from './helm-support.ts';

// biome-ignore lint/suspicious/noExplicitAny: each model class takes its own typed data; objects arrive untyped
type ModelClass = new (data: any) => { validate(): void };

const MODELS: Record<string, ModelClass> = {
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

/** The Prometheus Operator CRD, not in kubernetes-models: the fields the chart relies on, checked by hand. */
function checkServiceMonitor(object: KubeObject): void {
  const spec = object.spec;
  const problems: string[] = [];
  if (typeof spec?.selector !== 'object') problems.push('spec.selector must be an object');
  if (!Array.isArray(spec?.endpoints) || spec.endpoints.length === 0) problems.push('spec.endpoints must be a list');
  for (const endpoint of spec?.endpoints ?? []) {
    if (typeof endpoint.port !== 'string') problems.push('each endpoint needs a named port');
    if (endpoint.interval !== undefined && !/^\d+(ms|s|m|h)$/.test(endpoint.interval)) {
      problems.push(`bad interval ${endpoint.interval}`);
    }
  }
  if (problems.length > 0) throw new Error(`ServiceMonitor ${object.metadata.name}: ${problems.join('; ')}`);
}

/** Throws with the schema's message when the object is not a valid Kubernetes object of its kind. */
export function validateKubernetesObject(object: KubeObject): void {
  const type = `${object.apiVersion}/${object.kind}`;
  if (type === 'monitoring.coreos.com/v1/ServiceMonitor') {
    checkServiceMonitor(object);
    return;
  }
  const Model = MODELS[type];
  if (!Model) throw new Error(`no schema for ${type}: add its kubernetes-models class to MODELS`);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(object.metadata?.name ?? '')) {
    throw new Error(`${type}: metadata.name ${object.metadata?.name} is not a DNS label`);
  }
  try {
    new Model(object).validate();
  } catch (error) {
    throw new Error(`${type} ${object.metadata.name}: ${(error as Error).message}`);
  }
}
