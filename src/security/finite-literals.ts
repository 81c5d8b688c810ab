// GraphQL's Float accepts a literal such as 1e999 or a 400-digit integer and hands the resolver
// Infinity (variables are checked; literals are not). Numbers Atelier stores must be finite, so a
// numeric literal that does not fit a double is refused while validating, with the others.
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function FiniteNumberLiteralsRule(context: ValidationContext): ASTVisitor {
  const check = (node: { value: string }) => {
    if (!Number.isFinite(Number(node.value))) {
      context.reportError(
        new GraphQLError(
          `the number ${node.value.slice(0, 32)}${node.value.length > 32 ? '…' : ''} is too large: numbers must be finite`,
          { nodes: node as never },
        ),
      );
    }
  };
  return { IntValue: check, FloatValue: check };
}

export function useFiniteNumberLiterals(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(FiniteNumberLiteralsRule);
    },
  };
}
