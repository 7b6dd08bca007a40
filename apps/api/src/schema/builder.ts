import SchemaBuilder from '@pothos/core';
import type { ApiContext } from '../context.ts';

/** Configuration only; types and fields live in one file per domain beside this one. */
export const builder = new SchemaBuilder<{
  Context: ApiContext;
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
