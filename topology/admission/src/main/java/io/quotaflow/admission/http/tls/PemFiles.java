package io.quotaflow.admission.http.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Reads PEM files as cert-manager writes them into key stores, with the JDK alone: a certificate
 * chain ({@code tls.crt}), a private key in PKCS#8 ({@code PRIVATE KEY}) or PKCS#1 RSA ({@code RSA
 * PRIVATE KEY}, cert-manager's default for RSA) form. SEC1 EC keys ({@code EC PRIVATE KEY}) are
 * refused with a hint: ask cert-manager for {@code privateKey.encoding: PKCS8}.
 */
public final class PemFiles {

  /** The alias of the served key in the key stores built here. */
  public static final String KEY_ALIAS = "quotaflow-admission";

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");

  // DER of the PKCS#8 AlgorithmIdentifier for rsaEncryption (1.2.840.113549.1.1.1) with NULL.
  private static final byte[] RSA_ALGORITHM = {
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xf7,
    0x0d,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00
  };

  private PemFiles() {}

  /** A key store holding the key and its certificate chain under {@link #KEY_ALIAS}. */
  public static KeyStore keyStore(Path certificateFile, Path keyFile, char[] password)
      throws IOException, GeneralSecurityException {
    final List<X509Certificate> chain = certificates(certificateFile);
    if (chain.isEmpty()) {
      throw new GeneralSecurityException("no CERTIFICATE block in " + certificateFile);
    }
    final PrivateKey key = privateKey(keyFile, chain.get(0).getPublicKey().getAlgorithm());
    final KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, password);
    store.setKeyEntry(KEY_ALIAS, key, password, chain.toArray(new Certificate[0]));
    return store;
  }

  /** A client TLS context trusting the certificates of {@code trustFile}. */
  public static SSLContext trusting(Path trustFile) throws IOException, GeneralSecurityException {
    return clientContext(null, null, trustFile);
  }

  /**
   * A client TLS context trusting the certificates of {@code trustFile} and, when {@code
   * certificateFile} is not null, presenting that certificate (with {@code keyFile}) to servers
   * that ask for one: how one instance forwards to another that authenticates its callers.
   */
  public static SSLContext clientContext(Path certificateFile, Path keyFile, Path trustFile)
      throws IOException, GeneralSecurityException {
    final TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trustStore(List.of(trustFile)));
    KeyManager[] keys = null;
    if (certificateFile != null) {
      final char[] password = "quotaflow".toCharArray();
      final KeyManagerFactory keyFactory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyFactory.init(keyStore(certificateFile, keyFile, password), password);
      keys = keyFactory.getKeyManagers();
    }
    final SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys, factory.getTrustManagers(), null);
    return context;
  }

  /** A trust store of every certificate of {@code files}; each must hold one at least. */
  public static KeyStore trustStore(List<Path> files) throws IOException, GeneralSecurityException {
    final KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    int i = 0;
    for (final Path file : files) {
      final List<X509Certificate> found = certificates(file);
      if (found.isEmpty()) {
        throw new GeneralSecurityException("no CERTIFICATE block in " + file);
      }
      for (final X509Certificate certificate : found) {
        trust.setCertificateEntry("trusted-" + i++, certificate);
      }
    }
    return trust;
  }

  /** Every certificate of a PEM file, in order. */
  public static List<X509Certificate> certificates(Path file)
      throws IOException, GeneralSecurityException {
    final CertificateFactory factory = CertificateFactory.getInstance("X.509");
    final List<X509Certificate> certificates = new ArrayList<>();
    for (final Block block : blocks(Files.readString(file, StandardCharsets.US_ASCII))) {
      if (block.type().equals("CERTIFICATE")) {
        certificates.add(
            (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
      }
    }
    return certificates;
  }

  private static PrivateKey privateKey(Path file, String algorithm)
      throws IOException, GeneralSecurityException {
    for (final Block block : blocks(Files.readString(file, StandardCharsets.US_ASCII))) {
      switch (block.type()) {
        case "PRIVATE KEY" -> {
          return KeyFactory.getInstance(algorithm)
              .generatePrivate(new PKCS8EncodedKeySpec(block.der()));
        }
        case "RSA PRIVATE KEY" -> {
          return KeyFactory.getInstance("RSA")
              .generatePrivate(new PKCS8EncodedKeySpec(rsaPkcs1ToPkcs8(block.der())));
        }
        case "EC PRIVATE KEY" ->
            throw new GeneralSecurityException(
                file
                    + " holds a SEC1 EC key; store the key as PKCS#8 (cert-manager:"
                    + " spec.privateKey.encoding: PKCS8)");
        case "ENCRYPTED PRIVATE KEY" ->
            throw new GeneralSecurityException(file + " holds an encrypted key; use a plain one");
        default -> {
          // Other blocks (parameters, certificates) are skipped.
        }
      }
    }
    throw new GeneralSecurityException("no PRIVATE KEY block in " + file);
  }

  /** Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo (version 0, rsaEncryption). */
  private static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {0x02, 0x01, 0x00});
    body.writeBytes(RSA_ALGORITHM);
    body.write(0x04);
    writeLength(body, pkcs1.length);
    body.writeBytes(pkcs1);
    final ByteArrayOutputStream info = new ByteArrayOutputStream();
    info.write(0x30);
    writeLength(info, body.size());
    info.writeBytes(body.toByteArray());
    return info.toByteArray();
  }

  private static void writeLength(ByteArrayOutputStream out, int length) {
    if (length < 0x80) {
      out.write(length);
    } else if (length < 0x100) {
      out.write(0x81);
      out.write(length);
    } else if (length < 0x10000) {
      out.write(0x82);
      out.write(length >> 8);
      out.write(length & 0xff);
    } else {
      out.write(0x83);
      out.write(length >> 16);
      out.write((length >> 8) & 0xff);
      out.write(length & 0xff);
    }
  }

  private record Block(String type, byte[] der) {}

  private static List<Block> blocks(String text) throws GeneralSecurityException {
    final List<Block> blocks = new ArrayList<>();
    final Matcher matcher = BLOCK.matcher(text);
    while (matcher.find()) {
      try {
        blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
      } catch (IllegalArgumentException e) {
        throw new GeneralSecurityException("a " + matcher.group(1) + " block is not base64", e);
      }
    }
    return blocks;
  }
}
