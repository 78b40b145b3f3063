import { configure } from '@testing-library/react';

// findBy… and waitFor fail after 5 s instead of Testing Library's 1 s: a deadline for failures
// only (a passing test waits exactly as long as the page takes), so a machine loaded by the API
// suites running beside the component tests does not fail them.
configure({ asyncUtilTimeout: 5000 });
