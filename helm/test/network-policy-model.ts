// A small model of NetworkPolicy semantics, enough to ask "may A connect to B on port P?" of rendered
// policies without a cluster: a connection needs the destination's ingress and the source's egress to
// allow it, and a pod no policy selects for a direction is open in that direction. Simplifications: every
// release pod is in one namespace, ipBlock matches only addresses outside the cluster (as the Kubernetes
// docs advise using it), and selectors use matchLabels only (the test fails on anything else).
import type { KubeObject } from './helm-support.ts';

/** The namespace the rendered policies are installed in (helm template --namespace in helm-support.ts). */
export const RELEASE_NAMESPACE = 'engram';

export type Endpoint =
  | { kind: 'pod'; namespace: string; labels: Record<string, string> }
  | { kind: 'address'; ip: string };

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: unknown[];
}
interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  ports?: { port: number; protocol?: string }[];
  from?: Peer[];
  to?: Peer[];
}

function selects(selector: Selector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  if (selector.matchExpressions?.length) throw new Error('the model handles matchLabels only');
  return Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

function ipv4(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(base ?? '') / size);
}

function peerMatches(peer: Peer, endpoint: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock) {
    const { cidr, except = [] } = peer.ipBlock;
    return endpoint.kind === 'address' && inCidr(endpoint.ip, cidr) && !except.some((e) => inCidr(endpoint.ip, e));
  }
  if (endpoint.kind !== 'pod') return false;
  const namespaceLabels = { 'kubernetes.io/metadata.name': endpoint.namespace };
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, namespaceLabels)
    : endpoint.namespace === policyNamespace;
  return namespaceOk && selects(peer.podSelector, endpoint.labels);
}

function ruleAllows(rule: Rule, peers: Peer[] | undefined, other: Endpoint, port: number, namespace: string): boolean {
  const portOk = !rule.ports || rule.ports.some((p) => p.port === port && (p.protocol ?? 'TCP') === 'TCP');
  const peerOk = !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, other, namespace));
  return portOk && peerOk;
}

function allowedIn(
  policies: KubeObject[],
  pod: Endpoint,
  other: Endpoint,
  port: number,
  direction: 'Ingress' | 'Egress',
): boolean {
  if (pod.kind !== 'pod') return true; // an address outside the cluster has no policies
  const applying = policies.filter(
    (p) =>
      (p.spec.policyTypes ?? ['Ingress']).includes(direction) &&
      pod.namespace === RELEASE_NAMESPACE &&
      selects(p.spec.podSelector, pod.labels),
  );
  if (applying.length === 0) return true;
  return applying.some((policy) =>
    ((direction === 'Ingress' ? policy.spec.ingress : policy.spec.egress) ?? []).some((rule: Rule) =>
      ruleAllows(rule, direction === 'Ingress' ? rule.from : rule.to, other, port, pod.namespace),
    ),
  );
}

/** Whether `from` may open a TCP connection to `to` on `port` under these policies. */
export function mayConnect(policies: KubeObject[], from: Endpoint, to: Endpoint, port: number): boolean {
  return allowedIn(policies, from, to, port, 'Egress') && allowedIn(policies, to, from, port, 'Ingress');
}

/** A pod of the release with the labels its Deployment or Job gives it. */
export function podOf(workload: KubeObject): Endpoint {
  return { kind: 'pod', namespace: RELEASE_NAMESPACE, labels: workload.spec.template.metadata.labels };
}
