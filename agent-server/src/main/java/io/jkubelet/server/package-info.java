/** jkubelet server. */
package io.jkubelet.server;
