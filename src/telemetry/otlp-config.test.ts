import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { otlpConfig } from './otlp-config.js';

describe('otlpConfig', () => {
  it('is off without an endpoint or OTEL_TRACES_EXPORTER=otlp', () => {
    expect(otlpConfig({})).toBeUndefined();
    expect(
      otlpConfig({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toBeUndefined();
  });

  it('is on with an endpoint: protobuf, service warren, the traces path added', () => {
    expect(otlpConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      protocol: 'http/protobuf',
      serviceName: 'warren',
      endpoint: 'http://collector:4318/v1/traces',
      logContent: false,
    });
  });

  it('takes the traces endpoint as it is, JSON, a service name and content logging', () => {
    expect(
      otlpConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:pw@otel.example/in?key=secret',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'bot',
        WARREN_OTEL_LOG_CONTENT: '1',
      }),
    ).toEqual({
      protocol: 'http/json',
      serviceName: 'bot',
      // What messages show carries no credentials.
      endpoint: 'https://otel.example/in',
      logContent: true,
    });
  });

  it('is on with OTEL_TRACES_EXPORTER=otlp alone, sending to the default local collector', () => {
    expect(otlpConfig({ OTEL_TRACES_EXPORTER: 'otlp' })?.endpoint).toBe(
      'http://localhost:4318/v1/traces',
    );
  });

  it('is off with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true, endpoint or not', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(otlpConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(otlpConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });

  it('refuses what it cannot do, naming the variable', () => {
    const where = (env: NodeJS.ProcessEnv) => {
      try {
        otlpConfig(env);
      } catch (error) {
        if (ConfigError.isInstance(error)) return error.where;
      }
      return undefined;
    };
    expect(where({ OTEL_TRACES_EXPORTER: 'zipkin' })).toBe('OTEL_TRACES_EXPORTER');
    expect(
      where({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toBe('OTEL_EXPORTER_OTLP_PROTOCOL');
    expect(where({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toBe('OTEL_EXPORTER_OTLP_ENDPOINT');
  });
});
