// Vite bundles CSS imports into a stylesheet file (served under the CSP's style-src 'self').
declare module '*.css';
