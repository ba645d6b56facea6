<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: the random-image page. $page is the @id of the <random> element; $root is ''.
  The image fills the width of the screen in its own proportions; under it, the credit, the fields
  and the schedule. Without JavaScript everything but the live countdown and the favorites button
  is there; random.js adds those (and reloads the page when the next image is due).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="random" mode="body-class">random-page</xsl:template>

  <xsl:template match="random" mode="title">
    <xsl:value-of select="normalize-space(photo/caption)"/>
    <xsl:text> — </xsl:text>
    <xsl:value-of select="/gallery/title"/>
  </xsl:template>

  <xsl:template match="random" mode="card-description">
    <xsl:choose>
      <xsl:when test="normalize-space(photo/credit/@name) != ''">
        <xsl:value-of select="concat('Photo by ', normalize-space(photo/credit/@name), ' on ', $source-label)"/>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="concat('From ', $source-label)"/></xsl:otherwise>
    </xsl:choose>
    <xsl:if test="photo/license"><xsl:value-of select="concat(' · ', photo/license/@label)"/></xsl:if>
  </xsl:template>

  <xsl:template match="random" mode="head">
    <script src="{concat($root, 'assets/random.js')}" defer="defer"></script>
  </xsl:template>

  <xsl:template match="random" mode="bar">
    <xsl:call-template name="random-nav">
      <xsl:with-param name="here" select="'random'"/>
    </xsl:call-template>
  </xsl:template>

  <!-- "2026-11-21T14:20:05Z" as "2026-11-21 14:20 UTC". -->
  <xsl:template name="utc-time">
    <xsl:param name="instant"/>
    <time datetime="{$instant}">
      <xsl:value-of select="concat(substring($instant, 1, 10), ' ', substring($instant, 12, 5), ' UTC')"/>
    </time>
  </xsl:template>

  <!-- The URL of a random-page image: a file of the site, or an http(s) URL when hotlinked. -->
  <xsl:template name="random-image-url">
    <xsl:param name="image"/>
    <xsl:choose>
      <xsl:when test="$image/@src"><xsl:value-of select="concat($root, $image/@src)"/></xsl:when>
      <xsl:when test="starts-with($image/@url, 'https://') or starts-with($image/@url, 'http://')">
        <xsl:value-of select="$image/@url"/>
      </xsl:when>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="random" mode="main">
    <xsl:variable name="photo" select="photo"/>
    <xsl:variable name="main" select="$photo/image[@role = 'full']"/>
    <xsl:variable name="src">
      <xsl:call-template name="random-image-url"><xsl:with-param name="image" select="$main"/></xsl:call-template>
    </xsl:variable>
    <xsl:variable name="author-href" select="$photo/credit/@href[starts-with(., 'https://') or starts-with(., 'http://')]"/>
    <xsl:variable name="page-href" select="$photo/field[@key = 'page']/@href"/>
    <h1 class="vh">Random image: <bdi><xsl:value-of select="normalize-space($photo/caption)"/></bdi></h1>
    <figure class="random-figure" id="photo"
            data-favorite-id="{concat(/gallery/source/@name, ':', $photo/@source-id)}"
            data-favorite-src="{$src}" data-favorite-width="{$main/@width}" data-favorite-height="{$main/@height}"
            data-favorite-caption="{normalize-space($photo/caption)}" data-favorite-author="{$photo/credit/@name}"
            data-favorite-author-href="{$author-href}" data-favorite-page-href="{$page-href}"
            data-favorite-source="{/gallery/source/@label}"
            data-favorite-source-href="{$photo/credit/@source-href}">
      <xsl:if test="$src != ''">
        <img src="{$src}" alt="{normalize-space($photo/caption)}">
          <xsl:variable name="listed" select="$photo/image[floor(number(@width)) &gt; 0]"/>
          <xsl:if test="count($listed) &gt; 1">
            <xsl:variable name="srcset">
              <xsl:for-each select="$listed">
                <xsl:variable name="u">
                  <xsl:call-template name="random-image-url"><xsl:with-param name="image" select="."/></xsl:call-template>
                </xsl:variable>
                <xsl:if test="$u != '' and not(contains($u, ',')) and not(contains($u, ' '))">
                  <xsl:value-of select="concat($u, ' ', floor(number(@width)), 'w')"/>
                  <xsl:if test="position() != last()">, </xsl:if>
                </xsl:if>
              </xsl:for-each>
            </xsl:variable>
            <xsl:attribute name="srcset"><xsl:value-of select="$srcset"/></xsl:attribute>
            <xsl:attribute name="sizes">100vw</xsl:attribute>
          </xsl:if>
          <xsl:if test="floor(number($main/@width)) &gt; 0 and floor(number($main/@height)) &gt; 0">
            <xsl:attribute name="width"><xsl:value-of select="floor(number($main/@width))"/></xsl:attribute>
            <xsl:attribute name="height"><xsl:value-of select="floor(number($main/@height))"/></xsl:attribute>
          </xsl:if>
        </img>
      </xsl:if>
      <figcaption>
        <p class="credit">
          <xsl:text>Photo by </xsl:text>
          <xsl:call-template name="external-link">
            <xsl:with-param name="href" select="$photo/credit/@href"/>
            <xsl:with-param name="text" select="$photo/credit/@name"/>
          </xsl:call-template>
          <xsl:text> on </xsl:text>
          <xsl:call-template name="external-link">
            <xsl:with-param name="href" select="$photo/credit/@source-href"/>
            <xsl:with-param name="text" select="/gallery/source/@label"/>
          </xsl:call-template>
          <xsl:for-each select="$photo/license">
            <xsl:text> · </xsl:text>
            <span class="license">
              <xsl:call-template name="external-link">
                <xsl:with-param name="href" select="@href"/>
                <xsl:with-param name="text" select="@label"/>
              </xsl:call-template>
            </span>
          </xsl:for-each>
        </p>
      </figcaption>
    </figure>
    <div class="random-details">
      <dl class="fields">
        <xsl:for-each select="$photo/field">
          <dt data-field="{@key}"><xsl:value-of select="@label"/></dt>
          <dd>
            <xsl:call-template name="external-link">
              <xsl:with-param name="href" select="@href"/>
              <xsl:with-param name="text" select="."/>
            </xsl:call-template>
          </dd>
        </xsl:for-each>
      </dl>
      <p class="schedule" data-every="{@every}">
        <span>
          <xsl:text>Fetched </xsl:text>
          <xsl:call-template name="utc-time"><xsl:with-param name="instant" select="@fetched-at"/></xsl:call-template>
          <xsl:text>. </xsl:text>
        </span>
        <span data-next="">
          <xsl:text>Next image at </xsl:text>
          <time datetime="{@next-update}" data-next-update="">
            <xsl:value-of select="concat(substring(@next-update, 1, 10), ' ', substring(@next-update, 12, 5), ' UTC')"/>
          </time>
          <xsl:text>.</xsl:text>
        </span>
        <xsl:text> </xsl:text>
        <span class="countdown" role="timer" data-countdown="" hidden=""></span>
      </p>
      <p class="favorite-actions">
        <button type="button" class="favorite-toggle" data-favorite-toggle="" hidden="">Add to favorites</button>
        <a href="{concat($root, @favorites)}">Your favorites</a>
      </p>
    </div>
  </xsl:template>

  <!-- The two links between the random page and the favorites page. -->
  <xsl:template name="random-nav">
    <xsl:param name="here"/>
    <xsl:variable name="random" select="/gallery/random"/>
    <nav class="bar random-nav" aria-label="Pages">
      <xsl:choose>
        <xsl:when test="$here = 'random'"><span class="on" aria-current="page">Random image</span></xsl:when>
        <xsl:otherwise><a href="{concat($root, $random/@href)}">Random image</a></xsl:otherwise>
      </xsl:choose>
      <xsl:choose>
        <xsl:when test="$here = 'favorites'"><span class="on" aria-current="page">Favorites</span></xsl:when>
        <xsl:otherwise><a href="{concat($root, $random/@favorites)}">Favorites</a></xsl:otherwise>
      </xsl:choose>
    </nav>
  </xsl:template>

</xsl:stylesheet>
