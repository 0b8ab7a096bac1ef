import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config';
import { projectRoot } from '../../src/project-root';
import { testApp } from '../helpers/app';

type Doc = Record<string, unknown>;
// Manifests are read as loose trees: each test states the shape it expects.
type Tree = Record<string, any>;
const root = projectRoot();
const k8sDir = join(root, 'deploy/kubernetes');

function parseFile(path: string): Doc[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((doc) => {
    expect(doc.errors, `${path}: ${doc.errors.map((e) => e.message).join('; ')}`).toEqual([]);
    return doc.toJS() as Doc;
  });
}

const manifests = readdirSync(k8sDir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => parseFile(join(k8sDir, f)).map((doc) => ({ file: f, doc })));
const find = (kind: string, name = 'xcm-gateway') => {
  const found = manifests.find(({ doc }) => doc.kind === kind && (doc.metadata as Doc).name === name)?.doc;
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found as Tree;
};

const deployment = find('Deployment');
const container = deployment.spec.template.spec.containers[0];
const configMap = find('ConfigMap');
const routes = new Set(testApp().app.routes.map((r) => `${r.method} ${r.path}`));

describe('deploy/kubernetes', () => {
  it('every manifest parses and names its kind; kustomization lists every file', () => {
    expect(manifests.map(({ doc }) => doc.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'Kustomization', 'PodDisruptionBudget', 'Service', 'Service']);
    const files = readdirSync(k8sDir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    const kustomization = manifests.find(({ doc }) => doc.kind === 'Kustomization')?.doc as Tree;
    expect([...(kustomization.resources as string[])].sort()).toEqual(files.sort());
  });

  it('sets only variables of the config schema, with values the service accepts', () => {
    const data = configMap.data as Record<string, string>;
    const direct = (container.env ?? []).map((e: { name: string }) => e.name) as string[];
    for (const name of [...Object.keys(data), ...direct]) expect(CONFIG_VARIABLES, name).toContain(name);
    expect(() => loadConfig(data)).not.toThrow();
    expect(container.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }]);
    // The watch key from a Secret made outside the manifests; the previous one only during a rotation.
    expect(container.env).toEqual([
      { name: 'WATCH_ENCRYPTION_KEY', valueFrom: { secretKeyRef: { name: 'xcm-gateway-watch-key', key: 'WATCH_ENCRYPTION_KEY' } } },
      { name: 'WATCH_ENCRYPTION_KEY_PREVIOUS', valueFrom: { secretKeyRef: { name: 'xcm-gateway-watch-key', key: 'WATCH_ENCRYPTION_KEY_PREVIOUS', optional: true } } },
    ]);
  });

  it('probes point at real routes on the port the service listens on', () => {
    const port = container.ports.find((p: { name: string }) => p.name === 'http');
    expect(String(port.containerPort)).toBe(configMap.data.PORT);
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      const { path, port: probePort } = container[probe].httpGet;
      expect(routes, `${probe} ${path}`).toContain(`get ${path}`);
      expect(probePort).toBe('http');
    }
    expect(container.livenessProbe.httpGet.path).toBe('/health');
    expect(container.readinessProbe.httpGet.path).toBe('/ready');
    expect(routes).toContain(`get ${deployment.spec.template.metadata.annotations['prometheus.io/path']}`);
  });

  it('gives in-flight requests SHUTDOWN_GRACE_MS after preStop, within terminationGracePeriodSeconds', () => {
    const preStop = Number(container.lifecycle.preStop.exec.command[1]);
    const grace = Number(configMap.data.SHUTDOWN_GRACE_MS) / 1000;
    const period = deployment.spec.template.spec.terminationGracePeriodSeconds as number;
    expect(preStop).toBeGreaterThan(0);
    expect(period).toBeGreaterThan(preStop + grace);
    expect(period).toBeLessThanOrEqual(preStop + grace + 10);
  });

  it('sizes memory from the measured RSS, and points the rest at the Deployment', () => {
    const mi = (v: string) => Number(/^(\d+)Mi$/.exec(v)?.[1]);
    // docs/performance.md, Soak: the highest RSS sample was 378 MB (about 360 Mi).
    expect(mi(container.resources.requests.memory)).toBeGreaterThanOrEqual(360);
    expect(mi(container.resources.limits.memory)).toBeGreaterThanOrEqual(2 * mi(container.resources.requests.memory));
    const hpa = find('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    expect(find('PodDisruptionBudget').spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    expect(find('Service').spec.selector).toEqual(deployment.spec.selector.matchLabels);
    const redisService = find('Service', 'xcm-gateway-redis');
    expect(configMap.data.REDIS_URL).toBe(`redis://${redisService.metadata.name}:${redisService.spec.ports[0].port}`);
  });
});

describe('docker-compose.yml', () => {
  const [compose] = parseFile(join(root, 'docker-compose.yml')) as Tree[];

  it('runs two replicas sharing Redis behind a load balancer, with known variables', () => {
    expect(compose.services.gateway.deploy.replicas).toBe(2);
    for (const name of Object.keys(compose.services.gateway.environment)) expect(CONFIG_VARIABLES, name).toContain(name);
    // The watch key comes from the shell (compose refuses to start without it), never from the file.
    const { WATCH_ENCRYPTION_KEY: key, WATCH_ENCRYPTION_KEY_PREVIOUS: previous, ...environment } = compose.services.gateway.environment;
    expect(key).toMatch(/^\$\{WATCH_ENCRYPTION_KEY:\?/);
    expect(previous).toBe('${WATCH_ENCRYPTION_KEY_PREVIOUS:-}');
    expect(() => loadConfig({ ...environment, WATCH_ENCRYPTION_KEY: 'a'.repeat(64), WATCH_ENCRYPTION_KEY_PREVIOUS: '' })).not.toThrow();
    expect(compose.services.gateway.environment.REDIS_URL).toBe('redis://redis:6379');
    expect(compose.services.redis.image).toMatch(/^redis:/);
    const nginx = readFileSync(join(root, compose.services.lb.volumes[0].split(':')[0]), 'utf8');
    expect(nginx).toContain('server gateway:3001');
    expect(nginx).toContain('X-Forwarded-For');
  });
});
