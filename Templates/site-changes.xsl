<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: the "What's new" page of a site (vitrine build with history = true).
  The model is a <site> (docs/model.md); $page is the @id of its <history> ('changes'), $root is ''.
  One page per run of snapshots (history/@page; 1 is the oldest), one section per <snapshot> on it, newest
  first; in each, a <change> per gallery that changed, with the tiles of some of the items it added and a
  link to the gallery's own "What's new" page that shows the snapshot; then the pager.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="home.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="history" mode="body-class">changes-page</xsl:template>

  <xsl:template match="history" mode="title">
    <xsl:text>What’s new</xsl:text>
    <xsl:call-template name="history-title-page"/>
    <xsl:text> — </xsl:text>
    <xsl:value-of select="/site/title"/>
  </xsl:template>

  <xsl:template match="history" mode="head">
    <xsl:apply-templates select="/site" mode="head"/>
  </xsl:template>

  <!-- The card: what the page says of its newest snapshot, and the first of its tiles that is a file of the site (a
       tile has no license of its own: Vitrine keeps files only of pictures whose license lets others copy them). -->
  <xsl:template match="history" mode="card">
    <xsl:variable name="title"><xsl:apply-templates select="." mode="title"/></xsl:variable>
    <xsl:variable name="description">
      <xsl:call-template name="history-count"/>
      <xsl:for-each select="snapshot[1]">
        <xsl:value-of select="concat(' · ', @label, ': ', @added)"/>
        <xsl:choose>
          <xsl:when test="@added = 1"> new image, </xsl:when>
          <xsl:otherwise> new images, </xsl:otherwise>
        </xsl:choose>
        <xsl:value-of select="concat(@removed, ' gone')"/>
      </xsl:for-each>
    </xsl:variable>
    <xsl:call-template name="preview-card">
      <xsl:with-param name="title" select="$title"/>
      <xsl:with-param name="description" select="$description"/>
      <xsl:with-param name="image" select="(snapshot/change/tile/image[@role = 'tile'][@src])[1]"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template match="history" mode="main">
    <div class="intro">
      <h1>What’s new</h1>
      <p class="count"><xsl:call-template name="history-count"/></p>
    </div>
    <xsl:choose>
      <xsl:when test="snapshot">
        <xsl:for-each select="snapshot">
          <section class="snapshot" id="snapshot-{@number}" aria-labelledby="snapshot-{@number}-title">
            <h2 id="snapshot-{@number}-title"><time datetime="{@time}"><xsl:value-of select="@label"/></time></h2>
            <xsl:for-each select="change">
              <h3><a href="{concat($root, @href)}" dir="auto"><xsl:value-of select="title"/></a></h3>
              <p class="count">
                <xsl:value-of select="@added"/>
                <xsl:choose>
                  <xsl:when test="@added = 1"> new image</xsl:when>
                  <xsl:otherwise> new images</xsl:otherwise>
                </xsl:choose>
                <xsl:text>, </xsl:text>
                <xsl:value-of select="@removed"/>
                <xsl:text> gone</xsl:text>
                <xsl:if test="number(@added) &gt; count(tile)">
                  <xsl:text> · </xsl:text>
                  <a href="{concat($root, @href, '#snapshot-', ../@number)}">
                    <xsl:text>all of them</xsl:text>
                    <span class="vh"> in <bdi><xsl:value-of select="title"/></bdi></span>
                  </a>
                </xsl:if>
              </p>
              <xsl:if test="tile">
                <ol class="grid">
                  <xsl:apply-templates select="tile"/>
                </ol>
              </xsl:if>
            </xsl:for-each>
          </section>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <p class="empty">Nothing has changed yet.</p>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="history-pager"/>
  </xsl:template>

  <xsl:template match="tile">
    <xsl:variable name="image" select="image[@role = 'tile']"/>
    <li class="tile">
      <figure>
        <a class="frame" href="{concat($root, @href)}">
          <xsl:choose>
            <xsl:when test="$image/@src or $image/@url">
              <img alt="{normalize-space(caption)}" loading="lazy" decoding="async">
                <xsl:attribute name="src"><xsl:call-template name="image-href"><xsl:with-param name="img" select="$image"/></xsl:call-template></xsl:attribute>
                <xsl:if test="floor(number($image/@width)) &gt; 0 and floor(number($image/@height)) &gt; 0">
                  <xsl:attribute name="width"><xsl:value-of select="floor(number($image/@width))"/></xsl:attribute>
                  <xsl:attribute name="height"><xsl:value-of select="floor(number($image/@height))"/></xsl:attribute>
                </xsl:if>
              </img>
            </xsl:when>
            <xsl:otherwise>
              <span class="ph"><span class="ph-text"><strong>No image</strong></span></span>
            </xsl:otherwise>
          </xsl:choose>
          <xsl:if test="normalize-space(caption) = ''">
            <span class="vh">An image</span>
          </xsl:if>
        </a>
        <xsl:if test="normalize-space(caption) != '' or credit">
          <figcaption>
            <xsl:if test="normalize-space(caption) != ''">
              <span class="caption" dir="auto"><xsl:value-of select="normalize-space(caption)"/></span>
            </xsl:if>
            <xsl:if test="credit">
              <span class="credit">
                <xsl:choose>
                  <xsl:when test="credit/@role = 'publication'">Published by </xsl:when>
                  <xsl:otherwise>Photo by </xsl:otherwise>
                </xsl:choose>
                <xsl:call-template name="external-link">
                  <xsl:with-param name="href" select="credit/@href"/>
                  <xsl:with-param name="text" select="credit/@name"/>
                </xsl:call-template>
                <xsl:if test="not(credit/@role = 'publication')">
                  <xsl:text> on </xsl:text>
                  <xsl:value-of select="key('by-id', ../@gallery)/source/@label"/>
                </xsl:if>
              </span>
            </xsl:if>
          </figcaption>
        </xsl:if>
      </figure>
    </li>
  </xsl:template>

</xsl:stylesheet>
